// envelope(): the exact convex hull of a group's positions, as one aggregate SQL expression (no spatial extension).
//
// Positions are {x: lon, y: lat} structs in lists; the steps:
// 1. the extreme positions in 16 directions (hull vertices: arg_max aggregates for points);
// 2. positions strictly inside the polygon of those extremes are dropped (Akl-Toussaint): they
//    cannot be hull vertices; then again with 64 directions over the survivors;
// 3. Andrew's monotone chains over the sorted survivors, each a list_reduce.
// Steps 1-2 cost about a microsecond per position; step 3 about a hundred per survivor, so data
// spread over an area (a few thousand survivors per million) is fast, and positions all on their
// hull (a circle of points) cost the most.
import { lambdaName, pointCoordinates } from './geo-sql.js';
import { shapeVerticesSql } from './geo-shape.js';

export type GeoFieldKind = 'geo_point_2d' | 'geo_shape';

type Direction = readonly [number, number];

/** Unit vectors at equal angles, counterclockwise from east. */
const directions = (count: number): readonly Direction[] =>
  Array.from(
    { length: count },
    (_, k) => [Math.cos((2 * Math.PI * k) / count), Math.sin((2 * Math.PI * k) / count)] as const,
  );

/** The first pre-filter's polygon (aggregates over rows) and the second's (list operations on survivors). */
const COARSE = directions(16);
const FINE = directions(64);

/** DuckDB's `let`: evaluates `value` once and names it for `body`. */
function bind(value: string, name: string, body: string): string {
  return `list_transform([${value}], lambda ${name}: ${body})[1]`;
}

/** The group's positions (`all`) and their extremes in each direction, bound for a body. */
type Source = (
  fieldSql: string,
  body: (all: string, extremes: string) => string,
) => { positions: string; hull: string };

const SOURCES = {
  geo_point_2d: (field, body) => {
    const { lon, lat } = pointCoordinates(field);
    const known = `FILTER (WHERE ${lon} IS NOT NULL AND ${lat} IS NOT NULL)`;
    const position = `{'x': ${lon}, 'y': ${lat}}`;
    const positions = `list(${position}) ${known}`;
    // Aggregates, so computed in parallel over the rows rather than over the gathered list; both
    // are bound in one struct since an aggregate cannot appear inside a lambda.
    const extremes = COARSE.map(([c, s]) => `arg_max(${position}, ${lon} * ${c} + ${lat} * ${s}) ${known}`);
    const group = lambdaName('group');
    const hull = bind(
      `{'all': ${positions}, 'extremes': [${extremes.join(', ')}]}`,
      group,
      body(`${group}.all`, `${group}.extremes`),
    );
    return { positions, hull };
  },
  geo_shape: (field, body) => {
    const [p, all, extremes] = [lambdaName('p'), lambdaName('all'), lambdaName('extremes')];
    const positions = `list_transform(flatten(list(${shapeVerticesSql(field)})), lambda ${p}: {'x': ${p}[1], 'y': ${p}[2]})`;
    return {
      positions,
      hull: bind(positions, all, bind(listExtremesSql(all, COARSE), extremes, body(all, extremes))),
    };
  },
} as const satisfies Record<GeoFieldKind, Source>;

/** The extremes of a list of positions in each direction, by list operations. */
function listExtremesSql(all: string, towards: readonly Direction[]): string {
  const [p, keys] = [lambdaName('p'), lambdaName('keys')];
  const extremes = towards.map(([c, s]) =>
    bind(
      `list_transform(${all}, lambda ${p}: ${p}.x * ${c} + ${p}.y * ${s})`,
      keys,
      `${all}[list_position(${keys}, list_max(${keys}))]`,
    ),
  );
  return `[${extremes.join(', ')}]`;
}

/**
 * Half-plane coefficients of each edge of the extremes' polygon (counterclockwise): p is strictly
 * inside when a*x + b*y + c > 0 for all; a repeated extreme gives a 0 = 0 edge that always passes.
 */
function edgeCoefficientsSql(extremes: string, count: number): string {
  const fields = Array.from({ length: count }, (_, i) => {
    const [a, b] = [`${extremes}[${i + 1}]`, `${extremes}[${((i + 1) % count) + 1}]`];
    return [
      `'a${i}': ${a}.y - ${b}.y`,
      `'b${i}': ${b}.x - ${a}.x`,
      `'c${i}': CASE WHEN ${a} = ${b} THEN 1.0 ELSE (${b}.y - ${a}.y) * ${a}.x - (${b}.x - ${a}.x) * ${a}.y END`,
    ].join(', ');
  });
  return `{${fields.join(', ')}}`;
}

/** The positions not strictly inside the extremes' polygon, the extremes included. */
function survivorsSql(all: string, extremes: string, count: number): string {
  const [edges, p] = [lambdaName('edges'), lambdaName('p')];
  const inside = Array.from(
    { length: count },
    (_, i) => `${p}.x * ${edges}.a${i} + ${p}.y * ${edges}.b${i} + ${edges}.c${i} > 0`,
  );
  const outside = `list_filter(${all}, lambda ${p}: NOT (${inside.join(' AND ')}))`;
  return bind(edgeCoefficientsSql(extremes, count), edges, `list_concat(${extremes}, ${outside})`);
}

/** Both pre-filters, then the survivors distinct and sorted by lon, then lat. */
function candidatesSql(all: string, coarseExtremes: string): string {
  const [survivors, fine] = [lambdaName('survivors'), lambdaName('fine')];
  const refined = bind(
    listExtremesSql(survivors, FINE),
    fine,
    `list_sort(list_distinct(${survivorsSql(survivors, fine, FINE.length)}))`,
  );
  return bind(survivorsSql(all, coarseExtremes, COARSE.length), survivors, refined);
}

const cross = (a: string, b: string, c: string) =>
  `((${b}.x - ${a}.x) * (${c}.y - ${a}.y) - (${b}.y - ${a}.y) * (${c}.x - ${a}.x))`;

/** How many of a chain's last turns a step tests one by one before searching the whole chain. */
const CHAIN_WINDOW = 4;

/**
 * One monotone chain over sorted positions as a list_reduce whose accumulator is the chain: adding
 * a position keeps the chain up to its last strict left turn towards it, which is exactly what the
 * textbook's pop-while-not-left loop leaves. That turn is nearly always among the last few, tested
 * in a CASE (no nested lambda: list_reduce pays its setup at every step); else the whole chain.
 */
function chainSql(sorted: string): string {
  const [acc, e, i, q] = [lambdaName('chain'), lambdaName('next'), lambdaName('i'), lambdaName('q')];
  const p = `${e}[1]`;
  const recent = Array.from({ length: CHAIN_WINDOW }, (_, k) => {
    const turn = cross(`${acc}[${-k - 2}]`, `${acc}[${-k - 1}]`, p);
    return `WHEN len(${acc}) >= ${k + 2} AND ${turn} > 0 THEN len(${acc}) - ${k}`;
  });
  const search = `list_max(list_filter(range(2, len(${acc}) + 1), lambda ${i}: ${cross(`${acc}[${i} - 1]`, `${acc}[${i}]`, p)} > 0))`;
  const keep = `CASE WHEN len(${acc}) < 2 THEN len(${acc}) ${recent.join(' ')} ELSE coalesce(${search}, 1) END`;
  const steps = `list_transform(${sorted}, lambda ${q}: [${q}])`;
  return `list_reduce(${steps}, lambda ${acc}, ${e}: list_concat(${acc}[1:${keep}], ${e}), ${sorted}[1:0])`;
}

/**
 * The counterclockwise hull vertices of sorted distinct positions (ends not repeated): the lower
 * chain runs over the positions on or below the line from first to last, the upper over the others.
 */
function hullSql(sorted: string): string {
  const [lower, upper, p] = [lambdaName('lower'), lambdaName('upper'), lambdaName('p')];
  const side = (op: '<=' | '>=') =>
    `list_filter(${sorted}, lambda ${p}: ${cross(`${sorted}[1]`, `${sorted}[-1]`, p)} ${op} 0)`;
  const half = (chain: string) => `${chain}[1:len(${chain}) - 1]`;
  return bind(
    chainSql(side('<=')),
    lower,
    bind(chainSql(`list_reverse(${side('>=')})`), upper, `list_concat(${half(lower)}, ${half(upper)})`),
  );
}

/**
 * Aggregate: the convex hull of the group's positions as GeoJSON text: a Point for one distinct
 * position, a LineString when all are collinear, else a counterclockwise Polygon (NULL when none).
 */
export function envelopeAggregateSql(fieldSql: string, fieldType: GeoFieldKind): string {
  const [sorted, hull, q] = [lambdaName('sorted'), lambdaName('hull'), lambdaName('q')];
  const coordinates = (list: string) => `list_transform(${list}, lambda ${q}: [${q}.x, ${q}.y])`;
  const geometry =
    `CASE WHEN len(${sorted}) = 1 THEN to_json({'type': 'Point', 'coordinates': [${sorted}[1].x, ${sorted}[1].y]})::VARCHAR` +
    ` WHEN len(${hull}) = 2 THEN to_json({'type': 'LineString', 'coordinates': ${coordinates(hull)}})::VARCHAR` +
    ` ELSE to_json({'type': 'Polygon', 'coordinates': [${coordinates(`list_concat(${hull}, [${hull}[1]])`)}]})::VARCHAR END`;
  const { positions, hull: hullGeometry } = SOURCES[fieldType](fieldSql, (all, extremes) =>
    bind(candidatesSql(all, extremes), sorted, bind(hullSql(sorted), hull, geometry)),
  );
  return `CASE WHEN coalesce(len(${positions}), 0) > 0 THEN ${hullGeometry} END`;
}
