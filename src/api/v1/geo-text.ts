// The geographic texts v1 shares between its geofilter parameters and the q functions #distance
// and #polygon: latitude-first numbers and point lists, read into ODSQL geometries and predicates.
import type { Field } from '../../catalog/schema.js';
import { node, type Expr } from '../../odsql/index.js';

const NUMBER = /^\s*[+-]?\d+(?:\.\d+)?\s*$/;

/** `count` comma-separated numbers (any count when null), or null when the text is not that. */
export function numberList(text: string, count: number | null): number[] | null {
  const parts = text.split(',');
  if ((count !== null && parts.length !== count) || !parts.every((p) => NUMBER.test(p))) return null;
  return parts.map(Number);
}

/** `(lat,lon),(lat,lon),...` with at least three points, or null. */
export function pointList(text: string): [number, number][] | null {
  const points = [...text.matchAll(/\(([^()]*)\)/g)].map((m) => numberList(m[1]!, 2));
  if (points.length < 3 || text.replace(/\([^()]*\)|,|\s/g, '') !== '') return null;
  return points.every((p) => p !== null) ? (points as [number, number][]) : null;
}

/** The field geographic filters apply to when none is named: the first point field, else the first shape. */
export function defaultGeoField(fields: readonly Field[]): Field | null {
  return fields.find((f) => f.type === 'geo_point_2d') ?? fields.find((f) => f.type === 'geo_shape') ?? null;
}

/** The records of `field` within `meters` of a point given latitude first. */
export function withinMeters(field: string, lat: number, lon: number, meters: number): Expr {
  return node.call('within_distance', [
    node.field(field, true),
    node.geometry(`POINT(${lon} ${lat})`),
    node.quantity(Math.abs(meters), 'm'),
  ]);
}

/** The records of `field` that meet the polygon of latitude-first points (closed here). */
export function meetsPolygon(field: string, points: readonly (readonly [number, number])[]): Expr {
  const ring = [...points, points[0]!].map(([lat, lon]) => `${lon} ${lat}`);
  return node.call('intersects', [node.field(field, true), node.geometry(`POLYGON((${ring.join(', ')}))`)]);
}
