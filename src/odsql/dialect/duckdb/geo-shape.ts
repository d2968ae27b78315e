// SQL over geo_shape values (GeoJSON text): their vertices and segments as DuckDB lists, read with json functions.
import { lambdaName } from './geo-sql.js';

/** Coordinates of each GeoJSON type as a list of paths (DOUBLE[][][]); a lone point is a path of one. */
function pathsSql(shapeSql: string): string {
  // from_json with the structure of the type reads the document a few times faster than a CAST.
  const coordinates = (depth: number) => {
    const structure = `{"coordinates": ${'['.repeat(depth)}"DOUBLE"${']'.repeat(depth)}}`;
    return `struct_extract(from_json(${shapeSql}, '${structure}'), 'coordinates')`;
  };
  const p = lambdaName('point');
  return (
    `CASE json_extract_string(${shapeSql}, '$.type')` +
    ` WHEN 'Point' THEN [[${coordinates(1)}]]` +
    ` WHEN 'MultiPoint' THEN list_transform(${coordinates(2)}, lambda ${p}: [${p}])` +
    ` WHEN 'LineString' THEN [${coordinates(2)}]` +
    ` WHEN 'MultiLineString' THEN ${coordinates(3)}` +
    ` WHEN 'Polygon' THEN ${coordinates(3)}` +
    ` WHEN 'MultiPolygon' THEN flatten(${coordinates(4)}) END`
  );
}

/** Segments [lon1, lat1, lon2, lat2] of a list of paths; a path of one point gives a zero-length one. */
function segmentsSql(paths: string): string {
  const [r, i] = [lambdaName('path'), lambdaName('i')];
  return (
    `flatten(list_transform(${paths}, lambda ${r}: CASE WHEN len(${r}) = 1` +
    ` THEN [[${r}[1][1], ${r}[1][2], ${r}[1][1], ${r}[1][2]]]` +
    ` ELSE list_transform(range(1, len(${r})), lambda ${i}: [${r}[${i}][1], ${r}[${i}][2], ${r}[${i} + 1][1], ${r}[${i} + 1][2]]) END))`
  );
}

/** The lists a shape predicate is written over, as SQL valid inside `withShape`'s body. */
export interface ShapeLists {
  /** DOUBLE[][]: every vertex [lon, lat]. */
  readonly vertices: string;
  /** DOUBLE[][]: every segment [lon1, lat1, lon2, lat2]. */
  readonly segments: string;
  /** BOOLEAN: the shape is a Polygon or MultiPolygon (its segments are then ring edges). */
  readonly areal: string;
}

/**
 * Binds a shape's vertex and segment lists once (a one-element list_transform is DuckDB's `let`), so
 * the GeoJSON is parsed once per row whatever the body does with them. A NULL shape gives NULL.
 */
export function withShape(shapeSql: string, body: (shape: ShapeLists) => string): string {
  const [paths, lists] = [lambdaName('paths'), lambdaName('shape')];
  const areal = `json_extract_string(${shapeSql}, '$.type') IN ('Polygon', 'MultiPolygon')`;
  const bound = `{'v': flatten(${paths}), 's': ${segmentsSql(paths)}, 'a': ${areal}}`;
  const inner = body({
    vertices: `struct_extract(${lists}, 'v')`,
    segments: `struct_extract(${lists}, 's')`,
    areal: `struct_extract(${lists}, 'a')`,
  });
  return `list_transform([${pathsSql(shapeSql)}], lambda ${paths}: list_transform([${bound}], lambda ${lists}: ${inner})[1])[1]`;
}

/** A shape's vertices as DOUBLE[][] (for aggregates that gather them). */
export function shapeVerticesSql(shapeSql: string): string {
  return `flatten(${pathsSql(shapeSql)})`;
}

/** Whether any element of a list satisfies a predicate on `name` (false for an empty list). */
export function anySql(listSql: string, name: string, predicate: string): string {
  return `(len(list_filter(${listSql}, lambda ${name}: ${predicate})) > 0)`;
}

/** Whether every element of a list satisfies a predicate on `name` (true for an empty list). */
export function allSql(listSql: string, name: string, predicate: string): string {
  return `(len(list_filter(${listSql}, lambda ${name}: NOT coalesce(${predicate}, false))) = 0)`;
}
