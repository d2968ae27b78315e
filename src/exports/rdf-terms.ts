// The terms of a dataset export as linked data, shared by its four syntaxes so that they write
// the same graph: the IRIs of the dataset, its records and its field properties, and each
// value's literal (lexical form in SQL, datatype IRI).
import type { OutputColumn } from '../odsql/index.js';
import { RECORD_ID_COLUMN } from '../catalog/schema.js';
import { quoteIdentifier, quoteString } from '../odsql/dialect/duckdb/quoting.js';
import type { ExportContext } from './export-context.js';
import { PREFIXES } from './rdf-graph.js';
import { xmlName } from './sql-cells.js';

/** An IRI with the characters no IRI may hold percent-encoded (a Host header is user input). */
export const safeIri = (text: string): string =>
  text.replace(
    /[\x00-\x20<>"{}|^`\\]/g,
    (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`,
  );

/** The dataset's IRI: its page of the API. */
export const datasetIri = (context: ExportContext): string =>
  safeIri(`${context.baseUrl}/catalog/datasets/${encodeURIComponent(context.name)}`);

/** The namespace of a dataset's field properties. */
export const fieldNamespace = (context: ExportContext): string => `${datasetIri(context)}/fields#`;

/** The property IRI of a column. */
export const propertyIri = (context: ExportContext, column: OutputColumn): string =>
  `${fieldNamespace(context)}${xmlName(column.key)}`;

/** The base of the record IRIs (each syntax declares it: records are written relative to it). */
export const recordsBase = (context: ExportContext): string => `${datasetIri(context)}/records/`;

/** The dataset's IRI relative to recordsBase. */
export const datasetRef = (context: ExportContext): string => `../../${encodeURIComponent(context.name)}`;

/**
 * SQL of a row's IRI relative to recordsBase: the record's own API URL (GET answers the record),
 * its id encoded as encodeURIComponent does (as in the records' `_links`; `.` and `..` too, which
 * would be dot segments), so it holds no character to escape in any syntax; null for grouped rows,
 * which are not records.
 */
export function recordRefSql(context: ExportContext): string | null {
  if (!context.recordIds) return null;
  const id = quoteIdentifier(RECORD_ID_COLUMN);
  const kept = ['!', "'", '(', ')', '*'].reduce(
    (sql, c) => `replace(${sql}, '%${c.charCodeAt(0).toString(16).toUpperCase()}', ${quoteString(c)})`,
    `url_encode(${id})`,
  );
  return `CASE WHEN ${id} IN ('.', '..') THEN replace(${id}, '.', '%2E') ELSE ${kept} END`;
}

const XSD = PREFIXES.xsd!;

/** The datatype IRI of a column's literals, or null for plain strings. */
export function rdfDatatype(column: OutputColumn): string | null {
  const types: Partial<Record<OutputColumn['type'], string>> = {
    int: `${XSD}integer`,
    double: `${XSD}double`,
    number: `${XSD}double`,
    boolean: `${XSD}boolean`,
    date: `${XSD}date`,
    datetime: `${XSD}dateTime`,
    geo_point_2d: `${PREFIXES.geo}wktLiteral`,
    geo_shape: `${PREFIXES.geo}wktLiteral`,
  };
  return types[column.type] ?? null;
}

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
 * SQL of the lexical form (VARCHAR) of a value of `column` (`value`: the column, or a list item):
 * XSD's forms of numbers (NaN, INF), points and shapes as WKT (GeoSPARQL: longitude first), and
 * without the characters XML 1.0 forbids, so that every syntax carries the same literal.
 */
export function lexicalSql(column: OutputColumn, value: string): string {
  if (column.type === 'double' || column.type === 'number') {
    const d = `CAST(${value} AS DOUBLE)`;
    return `CASE WHEN isnan(${d}) THEN 'NaN' WHEN isinf(${d}) THEN (CASE WHEN ${d} > 0 THEN 'INF' ELSE '-INF' END) ELSE CAST(${d} AS VARCHAR) END`;
  }
  if (column.type === 'geo_point_2d') {
    return `'POINT (' || CAST(${value}.lon AS DOUBLE) || ' ' || CAST(${value}.lat AS DOUBLE) || ')'`;
  }
  if (column.type === 'geo_shape') return wktSql(`json_extract(${value}, '$.geometry')`);
  const text = `CAST(${value} AS VARCHAR)`;
  return rdfDatatype(column)
    ? text
    : `regexp_replace(${text}, '[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F]', '', 'g')`;
}

/** One property of the export's records: its IRI, datatype, and SQL of its lexical forms. */
export interface RdfProperty {
  readonly column: OutputColumn;
  readonly iri: string;
  readonly datatype: string | null;
  /** Lexical form of a single value, or of one item `v` of a multivalued field. */
  readonly lexical: string;
}

/** The properties of the export's columns. */
export function rdfProperties(context: ExportContext): RdfProperty[] {
  return context.columns.map((column) => ({
    column,
    iri: propertyIri(context, column),
    datatype: rdfDatatype(column),
    lexical: lexicalSql(column, column.multivalued ? 'v' : quoteIdentifier(column.key)),
  }));
}
