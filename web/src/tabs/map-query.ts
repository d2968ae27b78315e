// What the map tab asks the API: which geo field it draws, the records' geometries when there are
// few, the server's geo_cluster groups when there are many (never more than MAX_FEATURES either
// way), and the in_bbox condition of a view for "Filter to this view".
import type { Field } from '../shared/types.js';
import { odsqlField } from '../shared/url-state.js';

/** The most features (points, shapes or clusters) the map ever asks for. */
export const MAX_FEATURES = 5000;

export interface GeoFields {
  /** The field drawn: the first geo_shape field, else the first geo_point_2d field. */
  readonly drawn: Field;
  /** The first geo_point_2d field (what geo_cluster groups on), or null. */
  readonly point: Field | null;
  /** The field "Filter to this view" puts in in_bbox: the point field when there is one. */
  readonly filtered: Field;
}

/** The dataset's geo fields, or null when it has none. */
export function geoFields(fields: readonly Field[]): GeoFields | null {
  const point = fields.find((f) => f.type === 'geo_point_2d') ?? null;
  const drawn = fields.find((f) => f.type === 'geo_shape') ?? point;
  return drawn ? { drawn, point, filtered: point ?? drawn } : null;
}

/** A view's edges in degrees, as the map reports them. */
export interface Box {
  readonly south: number;
  readonly west: number;
  readonly north: number;
  readonly east: number;
}

const degrees = (value: number) => String(Math.round(value * 1e4) / 1e4);

/**
 * `in_bbox(field, south, west, north, east)` of a view: latitudes within -90..90, a view wider
 * than the world is the whole world's longitudes, and a view across the antimeridian keeps its
 * longitude past ±180 as in_bbox takes it (the map keeps its centre within -180..180).
 */
export function bboxCondition(field: string, box: Box): string {
  const south = Math.max(-90, box.south);
  const north = Math.min(90, box.north);
  const whole = box.east - box.west >= 360;
  const west = whole ? -180 : Math.max(-360, box.west);
  const east = whole ? 180 : Math.min(360, box.east);
  return `in_bbox(${odsqlField(field)}, ${[south, west, north, east].map(degrees).join(', ')})`;
}

/**
 * `in_bbox` of a cluster's cell, its edges rounded outwards to 1e-7 degrees (a centimetre): the
 * cells of the last zooms are a few metres wide, too small for a view's four decimals.
 */
export function cellCondition(field: string, cell: Box): string {
  const out = (value: number, round: (v: number) => number) => String(round(value * 1e7) / 1e7);
  const edges = [out(cell.south, Math.floor), out(cell.west, Math.floor)];
  edges.push(out(cell.north, Math.ceil), out(cell.east, Math.ceil));
  return `in_bbox(${odsqlField(field)}, ${edges.join(', ')})`;
}

/** The latitude of the top edge of web-mercator tile row `row` of `tiles`. */
const rowLatitude = (row: number, tiles: number) =>
  (Math.atan(Math.sinh(Math.PI * (1 - (2 * row) / tiles))) * 180) / Math.PI;

/**
 * The web-mercator tile at zoom `precision` holding a point: the cell of geo_cluster's groups
 * (the server's tiles: column from the longitude, row from the latitude clamped to ±85.05°).
 */
export function tileBox(lat: number, lon: number, precision: number): Box {
  const tiles = 2 ** precision;
  const clamp = (v: number) => Math.min(Math.max(v, 0), tiles - 1);
  const column = clamp(Math.floor(((lon + 180) / 360) * tiles));
  const phi = (Math.min(Math.max(lat, -85.0511287798066), 85.0511287798066) * Math.PI) / 180;
  const row = clamp(Math.floor(((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * tiles));
  return {
    south: rowLatitude(row + 1, tiles),
    west: (column / tiles) * 360 - 180,
    north: rowLatitude(row, tiles),
    east: ((column + 1) / tiles) * 360 - 180,
  };
}

/** An in_bbox condition the map added to a where, at its end: `<rest> and in_bbox(...)` or alone. */
const ADDED_BBOX = /^(?:\(([\s\S]*)\) and )?in_bbox\(`(?:[^`\\]|\\.)+`(?:, -?[\d.]+){4}\)$/;

/** The where with the view's in_bbox condition, replacing one the map added before. */
export function whereWithBbox(where: string, condition: string): string {
  const match = ADDED_BBOX.exec(where.trim());
  const rest = match ? (match[1] ?? '') : where.trim();
  return rest ? `(${rest}) and ${condition}` : condition;
}

/** geo_cluster's precision for a map zoom: web-mercator tiles a quarter of a 256 px tile wide. */
export function clusterPrecision(zoom: number): number {
  return Math.min(24, Math.max(1, Math.round(zoom) + 2));
}

/** The group_by of the clusters of the point field at `precision`. */
export function clusterGroupBy(point: string, precision: number): string {
  return `geo_cluster(${odsqlField(point)}, ${precision})`;
}
