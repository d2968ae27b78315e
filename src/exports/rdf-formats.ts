// Records as RDF: Turtle (also served as N3, of which it is a subset), RDF/XML and JSON-LD.
// Each row is one resource whose properties are the dataset's fields; literals are formatted in SQL.
import type { OutputColumn } from '../odsql/index.js';
import { quoteIdentifier, quoteString } from '../sql-text.js';
import { copyToStream } from './copy-stream.js';
import type { ExportContext, Exporter } from './export-context.js';
import { streamQuery } from './query-stream.js';
import { cellText, turtleEscaped, xmlEscaped, xmlName, xmlText, xsdType } from './sql-cells.js';

/** The namespace of a dataset's field properties. */
export const fieldNamespace = (context: ExportContext): string =>
  `${context.baseUrl}/catalog/datasets/${encodeURIComponent(context.name)}/fields#`;

const sqlText = (text: string): string => quoteString(text);

/** Turtle `predicate object(s)` of one column, or NULL when the value is null or empty. */
function turtlePredicate(context: ExportContext, column: OutputColumn): string {
  const name = quoteIdentifier(column.key);
  const predicate = `<${fieldNamespace(context)}${xmlName(column.key)}> `;
  const type = xsdType(column);
  const literal = (valueSql: string): string =>
    `'"' || ${turtleEscaped(valueSql)} || '"${type ? `^^<${type}>` : ''}'`;
  if (column.multivalued) {
    const objects = `array_to_string(list_transform(${name}, lambda v: ${literal('CAST(v AS VARCHAR)')}), ', ')`;
    return `CASE WHEN ${name} IS NULL OR len(${name}) = 0 THEN NULL ELSE ${sqlText(predicate)} || ${objects} END`;
  }
  const value = cellText(column, context.options.listSeparator);
  return `CASE WHEN ${name} IS NULL THEN NULL ELSE ${sqlText(predicate)} || ${literal(value)} END`;
}

/** Turtle: one blank-node subject per row, its predicate list written by DuckDB. */
function writeTurtle(context: ExportContext) {
  const recordClass = `<${fieldNamespace(context)}Record>`;
  const predicates = context.columns.map((c) => turtlePredicate(context, c));
  const sql = `SELECT concat_ws(' ;\n  ', ${sqlText(`a ${recordClass}`)}, ${predicates.join(', ')}) FROM (${context.sql})`;
  let row = 0;
  return streamQuery(
    context.engine,
    sql,
    (chunk) => (chunk.getColumnValues(0) as string[]).map((line) => `_:r${++row} ${line} .\n`).join(''),
    { head: '', tail: '' },
    context.signal,
  );
}

/** RDF/XML property elements of one column ('' when null). */
function xmlProperty(context: ExportContext, column: OutputColumn): string {
  const name = quoteIdentifier(column.key);
  const tag = `f:${xmlName(column.key)}`;
  const type = xsdType(column);
  const open = `<${tag}${type ? ` rdf:datatype="${type}"` : ''}>`;
  const element = (valueSql: string): string =>
    `${sqlText(open)} || ${xmlEscaped(valueSql)} || ${sqlText(`</${tag}>`)}`;
  if (column.multivalued) {
    return `coalesce(array_to_string(list_transform(${name}, lambda v: ${element('CAST(v AS VARCHAR)')}), ''), '')`;
  }
  return `coalesce(${element(cellText(column, context.options.listSeparator))}, '')`;
}

/** RDF/XML: one rdf:Description per row. */
function writeRdfXml(context: ExportContext) {
  const properties = context.columns.map((c) => xmlProperty(context, c));
  const body = properties.length === 0 ? "''" : properties.join(' || ');
  const sql = `SELECT '<rdf:Description>' || ${body} || '</rdf:Description>' FROM (${context.sql})`;
  const head =
    '<?xml version="1.0" encoding="UTF-8"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" ' +
    `xmlns:f="${xmlText(fieldNamespace(context))}">\n`;
  return streamQuery(
    context.engine,
    sql,
    (chunk) => (chunk.getColumnValues(0) as string[]).map((line) => `${line}\n`).join(''),
    { head, tail: '</rdf:RDF>\n' },
    context.signal,
  );
}

/** JSON-LD: DuckDB's JSON array of rows as the @graph, the @context mapping keys to properties. */
async function writeJsonLd(context: ExportContext) {
  const textual = new Set(['geo_point_2d', 'geo_shape', 'json', 'json_blob']);
  const keyOf = (c: OutputColumn): string => context.options.headers.get(c.key) ?? c.key;
  const select = context.columns
    .map((c) => {
      const value = textual.has(c.type) ? cellText(c, context.options.listSeparator) : quoteIdentifier(c.key);
      return `${value} AS ${quoteIdentifier(keyOf(c))}`;
    })
    .join(', ');
  const terms = Object.fromEntries(
    context.columns.map((c) => {
      const type = xsdType(c);
      const id = `${fieldNamespace(context)}${xmlName(c.key)}`;
      return [keyOf(c), type ? { '@id': id, '@type': type } : { '@id': id }];
    }),
  );
  return copyToStream(
    context.engine,
    `SELECT ${select || "'' AS _"} FROM (${context.sql})`,
    'FORMAT json, ARRAY true',
    context.signal,
    { head: `{"@context":${JSON.stringify(terms)},"@graph":`, tail: '}\n' },
  );
}

export const RDF_FORMATS = {
  turtle: {
    contentType: 'text/turtle; charset=utf-8',
    extension: 'ttl',
    output: 'json',
    geo: false,
    write: writeTurtle,
  },
  n3: {
    contentType: 'text/n3; charset=utf-8',
    extension: 'n3',
    output: 'json',
    geo: false,
    write: writeTurtle,
  },
  rdfxml: {
    contentType: 'application/rdf+xml',
    extension: 'rdf',
    output: 'json',
    geo: false,
    write: writeRdfXml,
  },
  jsonld: {
    contentType: 'application/ld+json',
    extension: 'jsonld',
    output: 'json',
    geo: false,
    write: writeJsonLd,
  },
} satisfies Record<string, Exporter>;
