// The terms of a dataset export as linked data, shared by its four syntaxes so that they write
// the same graph: the IRIs of the dataset, its records and its field properties, and each
// value's literal (lexical form as a shaped cell, datatype IRI).
import { cell, type Cell, type OutputColumn } from '../odsql/index.js';
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
  safeIri(`${context.sourceUrl}/datasets/${encodeURIComponent(context.name)}`);

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
 * A row's IRI relative to recordsBase: the record's own API URL (GET answers the record), its id
 * encoded as encodeURIComponent does (as in the records' `_links`; `.` and `..` too, which would be
 * dot segments), so it holds no character to escape in any syntax; null for grouped rows, which are
 * not records.
 */
export function recordRef(context: ExportContext): Cell | null {
  return context.recordIds ? cell.uriComponent(cell.recordId()) : null;
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

/** One property of the export's records: its IRI, datatype, and the cell of its lexical forms. */
export interface RdfProperty {
  readonly column: OutputColumn;
  readonly iri: string;
  readonly datatype: string | null;
  /** Lexical form of a single value, or of the item of a multivalued field's list (inside 'each'). */
  readonly lexical: Cell;
}

/** The properties of the export's columns. */
export function rdfProperties(context: ExportContext): RdfProperty[] {
  return context.columns.map((column) => ({
    column,
    iri: propertyIri(context, column),
    datatype: rdfDatatype(column),
    lexical: cell.rdfLexical(column.type, column.multivalued ? cell.item() : cell.value(column)),
  }));
}
