// Aggregations over geo fields: bounding box, convex hull (envelope) and web-mercator clusters, as SQL.
import { QueryLangError } from '../../errors.js';
import { lambdaName, pointCoordinates } from './geo-sql.js';
import { shapeVerticesSql } from './geo-shape.js';
import type { GeoFieldKind } from './geo-hull.js';

export { envelopeAggregateSql } from './geo-hull.js';

/** The extent of the group's geometries as four aggregates (NULL when the group has none). */
const EXTENT = {
  geo_point_2d: (field) => {
    const { lon, lat } = pointCoordinates(field);
    return { west: `min(${lon})`, south: `min(${lat})`, east: `max(${lon})`, north: `max(${lat})` };
  },
  geo_shape: (field) => {
    const p = lambdaName('p');
    const axis = (extreme: 'min' | 'max', i: 1 | 2) =>
      `${extreme}(list_${extreme}(list_transform(${shapeVerticesSql(field)}, lambda ${p}: ${p}[${i}])))`;
    return { west: axis('min', 1), south: axis('min', 2), east: axis('max', 1), north: axis('max', 2) };
  },
} as const satisfies Record<
  GeoFieldKind,
  (fieldSql: string) => Record<'west' | 'south' | 'east' | 'north', string>
>;

/** Aggregate: the GeoJSON Polygon of the bounding box of the group's geometries (NULL when none). */
export function bboxAggregateSql(fieldSql: string, fieldType: GeoFieldKind): string {
  const { west: w, south: s, east: e, north: n } = EXTENT[fieldType](fieldSql);
  const ring = `[[${w}, ${s}], [${e}, ${s}], [${e}, ${n}], [${w}, ${n}], [${w}, ${s}]]`;
  return `CASE WHEN ${w} IS NOT NULL THEN to_json({'type': 'Polygon', 'coordinates': [${ring}]})::VARCHAR END`;
}

/** SQL of a geo_cluster group: a tile key, and the aggregates placing the cluster at its points' mean. */
export interface GeoClusterSql {
  readonly keySql: string;
  readonly centroidLatSql: string;
  readonly centroidLonSql: string;
}

/** Latitude limit of the square web-mercator world. */
const MERCATOR_MAX_LAT = 85.0511287798066;

/** Web-mercator tiles at zoom `precision` (1..24): the key is row * 2^precision + column. */
export function geoClusterSql(pointSql: string, precision: number): GeoClusterSql {
  if (!Number.isInteger(precision) || precision < 1 || precision > 24) {
    throw new QueryLangError(`geo_cluster() precision must be an integer from 1 to 24, got ${precision}`);
  }
  const { lon, lat } = pointCoordinates(pointSql);
  const tiles = 2 ** precision;
  const clamp = (v: string) => `least(greatest(${v}, 0), ${tiles - 1})`;
  const column = clamp(`floor((${lon} + 180) / 360 * ${tiles})`);
  const phi = `radians(least(greatest(${lat}, ${-MERCATOR_MAX_LAT}), ${MERCATOR_MAX_LAT}))`;
  const row = clamp(`floor((1 - ln(tan(${phi}) + 1 / cos(${phi})) / pi()) / 2 * ${tiles})`);
  return {
    // least/greatest skip NULLs, so a null point is kept out of the clamps explicitly.
    keySql: `CASE WHEN ${lon} IS NOT NULL AND ${lat} IS NOT NULL THEN CAST(${row} * ${tiles} + ${column} AS BIGINT) END`,
    centroidLatSql: `avg(${lat})`,
    centroidLonSql: `avg(${lon})`,
  };
}
