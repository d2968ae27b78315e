// Aggregations over geo fields: bounding box, convex hull (envelope) and web-mercator clusters, as SQL.
import { QueryLangError } from '../errors.js';
import { lambdaName, pointCoordinates } from './geo-sql.js';
import { shapeVerticesSql } from './geo-shape.js';

type FieldKind = 'geo_point_2d' | 'geo_shape';

/** DuckDB's `let`: evaluates `value` once and names it for `body`. */
function bind(value: string, name: string, body: string): string {
  return `list_transform([${value}], lambda ${name}: ${body})[1]`;
}

/** Every non-null position of the group as an aggregate list of [lon, lat] (duplicates kept). */
const POSITIONS = {
  geo_point_2d: (field) => {
    const { lon, lat } = pointCoordinates(field);
    return `list([${lon}, ${lat}]) FILTER (WHERE ${lon} IS NOT NULL AND ${lat} IS NOT NULL)`;
  },
  geo_shape: (field) => {
    const p = lambdaName('p');
    return `list_transform(flatten(list(${shapeVerticesSql(field)})), lambda ${p}: [${p}[1], ${p}[2]])`;
  },
} as const satisfies Record<FieldKind, (fieldSql: string) => string>;

/** Aggregate: the GeoJSON Polygon of the bounding box of the group's geometries (NULL when none). */
export function bboxAggregateSql(fieldSql: string, fieldType: FieldKind): string {
  const [all, p] = [lambdaName('all'), lambdaName('p')];
  const axis = (extreme: 'min' | 'max', i: 1 | 2) =>
    `list_${extreme}(list_transform(${all}, lambda ${p}: ${p}[${i}]))`;
  const [w, s, e, n] = [axis('min', 1), axis('min', 2), axis('max', 1), axis('max', 2)];
  const polygon = `to_json({'type': 'Polygon', 'coordinates': [[[${w}, ${s}], [${e}, ${s}], [${e}, ${n}], [${w}, ${n}], [${w}, ${s}]]]})::VARCHAR`;
  return bind(POSITIONS[fieldType](fieldSql), all, `CASE WHEN len(${all}) > 0 THEN ${polygon} END`);
}

/** Sign of the turn a -> b -> c over DOUBLE[] lambda variables; positive counterclockwise. */
const cross = (a: string, b: string, c: string) =>
  `((${b}[1] - ${a}[1]) * (${c}[2] - ${a}[2]) - (${b}[2] - ${a}[2]) * (${c}[1] - ${a}[1]))`;

/**
 * One monotone chain (Andrew) over sorted points, as a list_reduce whose accumulator is the chain:
 * adding a point keeps the chain up to its last strict left turn towards the point, which is
 * exactly what the textbook's pop-while-not-left loop leaves.
 */
function chainSql(sortedSql: string): string {
  const [acc, e, i, q] = [lambdaName('chain'), lambdaName('next'), lambdaName('i'), lambdaName('q')];
  const p = `${e}[1]`;
  const leftTurns = `list_filter(range(2, len(${acc}) + 1), lambda ${i}: ${cross(`${acc}[${i} - 1]`, `${acc}[${i}]`, p)} > 0)`;
  const keep = `coalesce(list_max(${leftTurns}), least(len(${acc}), 1))`;
  return `list_reduce(list_transform(${sortedSql}, lambda ${q}: [${q}]), lambda ${acc}, ${e}: list_concat(${acc}[1:${keep}], ${e}), []::DOUBLE[][])`;
}

/**
 * Drops points strictly inside the quadrilateral of the leftmost, lowest, rightmost and highest
 * points (Akl-Toussaint): they cannot be hull vertices, and most points of a cloud are there.
 */
function outerPointsSql(pts: string): string {
  const [a, b, p] = [lambdaName('a'), lambdaName('b'), lambdaName('p')];
  const extreme = (op: '<' | '>') =>
    `list_reduce(${pts}, lambda ${a}, ${b}: CASE WHEN ${b}[2] ${op} ${a}[2] THEN ${b} ELSE ${a} END, ${pts}[1])`;
  const [left, low, right, high] = [`${pts}[1]`, extreme('<'), `${pts}[-1]`, extreme('>')];
  const quad = [left, low, right, high, left];
  const inside = quad.slice(1).map((to, k) => `${cross(quad[k]!, to, p)} > 0`);
  return `list_filter(${pts}, lambda ${p}: NOT (${inside.join(' AND ')}))`;
}

/**
 * Aggregate: the convex hull of the group's positions as GeoJSON text: a Point for one distinct
 * position, a LineString when all are collinear, else a counterclockwise Polygon (NULL when none).
 */
export function envelopeAggregateSql(fieldSql: string, fieldType: FieldKind): string {
  const [pts, kept, hull] = [lambdaName('pts'), lambdaName('kept'), lambdaName('hull')];
  const half = (chain: string) => `${chain}[1:len(${chain}) - 1]`;
  const [lower, upper] = [lambdaName('lower'), lambdaName('upper')];
  const ring = bind(chainSql(`list_reverse(${kept})`), upper, `list_concat(${half(lower)}, ${half(upper)})`);
  const chains = bind(chainSql(kept), lower, ring);
  const geometry =
    `CASE WHEN len(${pts}) = 0 THEN NULL` +
    ` WHEN len(${pts}) = 1 THEN to_json({'type': 'Point', 'coordinates': ${pts}[1]})::VARCHAR` +
    ` WHEN len(${hull}) = 2 THEN to_json({'type': 'LineString', 'coordinates': ${hull}})::VARCHAR` +
    ` ELSE to_json({'type': 'Polygon', 'coordinates': [list_concat(${hull}, [${hull}[1]])]})::VARCHAR END`;
  const body = bind(outerPointsSql(pts), kept, bind(chains, hull, geometry));
  return bind(`list_sort(list_distinct(${POSITIONS[fieldType](fieldSql)}))`, pts, body);
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
    keySql: `CAST(${row} * ${tiles} + ${column} AS BIGINT)`,
    centroidLatSql: `avg(${lat})`,
    centroidLonSql: `avg(${lon})`,
  };
}
