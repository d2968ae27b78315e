// DuckDB's spelling of the terms of linked data (shape.ts's cells of the RDF exports): a value's
// lexical form, a Turtle string's body, an IRI's path segment.
import type { OutputColumn } from '../../types.js';
import { TURTLE_ESCAPES } from '../../shape.js';
import { quoteString } from '../../../sql/quoting.js';
import { xmlAllowedSql } from './text-forms.js';

/** SQL of a GeoJSON geometry (JSON) as WKT; `nested` once inside a collection. */
function wktSql(geometry: string, nested = false): string {
  const type = `json_extract_string(${geometry}, '$.type')`;
  const coordinates = `CAST(json_extract(${geometry}, '$.coordinates') AS VARCHAR)`;
  // [x,y(,z)] -> "x y", then the remaining brackets -> parentheses.
  const positions = `regexp_replace(${coordinates}, '\\[(-?[0-9][^,\\[\\]]*),(-?[0-9][^,\\[\\]]*)(,[^\\[\\]]*)?\\]', '\\1 \\2', 'g')`;
  const body = `replace(replace(${positions}, '[', '('), ']', ')')`;
  const members = nested
    ? 'NULL'
    : `'GEOMETRYCOLLECTION (' || array_to_string(list_transform(CAST(json_extract(${geometry}, '$.geometries') AS JSON[]), lambda m: ${wktSql('m', true)}), ', ') || ')'`;
  return `CASE WHEN ${type} = 'GeometryCollection' THEN ${members} WHEN ${coordinates} = '[]' THEN upper(${type}) || ' EMPTY' WHEN ${type} = 'Point' THEN 'POINT (' || ${body} || ')' ELSE upper(${type}) || ' ' || ${body} END`;
}

/**
 * SQL of the lexical form (VARCHAR) of a value of `type`: XSD's forms of numbers (NaN, INF),
 * points and shapes as WKT (GeoSPARQL: longitude first), other values as text without the
 * characters XML 1.0 forbids, so that every syntax carries the same literal.
 */
export function rdfLexicalSql(type: OutputColumn['type'], value: string): string {
  if (type === 'double' || type === 'number') {
    const d = `CAST(${value} AS DOUBLE)`;
    return `CASE WHEN isnan(${d}) THEN 'NaN' WHEN isinf(${d}) THEN (CASE WHEN ${d} > 0 THEN 'INF' ELSE '-INF' END) ELSE CAST(${d} AS VARCHAR) END`;
  }
  if (type === 'geo_point_2d') {
    return `'POINT (' || CAST(${value}.lon AS DOUBLE) || ' ' || CAST(${value}.lat AS DOUBLE) || ')'`;
  }
  if (type === 'geo_shape') return wktSql(`json_extract(${value}, '$.geometry')`);
  return xmlAllowedSql(`CAST(${value} AS VARCHAR)`);
}

/** SQL of a Turtle string literal's body of a VARCHAR (quotes, backslashes, line breaks escaped). */
export function turtleStringSql(sql: string): string {
  return TURTLE_ESCAPES.reduce(
    (inner, [from, to]) => `replace(${inner}, ${quoteString(from)}, ${quoteString(to)})`,
    sql,
  );
}

/**
 * SQL of a VARCHAR encoded as encodeURIComponent does, `.` and `..` too (they would be dot
 * segments of an IRI's path).
 */
export function uriComponentSql(text: string): string {
  const kept = ['!', "'", '(', ')', '*'].reduce(
    (sql, c) => `replace(${sql}, '%${c.charCodeAt(0).toString(16).toUpperCase()}', ${quoteString(c)})`,
    `url_encode(${text})`,
  );
  return `CASE WHEN ${text} IN ('.', '..') THEN replace(${text}, '.', '%2E') ELSE ${kept} END`;
}
