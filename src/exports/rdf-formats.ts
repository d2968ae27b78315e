// Records as linked data: Turtle (also served as N3, of which it is a subset), RDF/XML and
// JSON-LD, the same graph in each (rdf-terms.ts): a record is its API URL, part of the dataset's
// IRI, with one property per field; each row's statements are shaped cells written by the engine.
import { cell, shapedSql, type Cell, type ShapedColumn } from '../odsql/index.js';
import type { ExportContext, Exporter } from './export-context.js';
import { streamQuery, type ChunkEncoder } from './query-stream.js';
import { PREFIXES } from './rdf-graph.js';
import {
  datasetRef,
  fieldNamespace,
  rdfProperties,
  recordRef,
  recordsBase,
  type RdfProperty,
} from './rdf-terms.js';
import { xmlName, xmlText } from './sql-cells.js';

const IS_PART_OF = `${PREFIXES.dct}isPartOf`;

/** Each row's record IRI relative to recordsBase, null for grouped rows (blank nodes). */
const subject = (context: ExportContext): Cell => recordRef(context) ?? cell.literal(null);

/** The rows' shaped statement text, then their subject IRI (what rowLines reads). */
const statements = (context: ExportContext, text: Cell): string =>
  shapedSql(context.query, [
    { name: null, cell: text },
    { name: null, cell: subject(context) },
  ]);

/** A chunk encoder of rows (statement text, subject IRI or null), each line made by `line`. */
const rowLines =
  (line: (statement: string, iri: string | null) => string): ChunkEncoder =>
  (chunk) => {
    const iris = chunk.values(1) as readonly (string | null)[];
    return (chunk.values(0) as readonly string[]).map((text, i) => line(text, iris[i] ?? null)).join('');
  };

/** The Turtle prefixes of a dataset's export, and the shortest name of an IRI under them. */
function turtleNames(context: ExportContext) {
  const prefixes: [string, string][] = [
    ['dct', PREFIXES.dct!],
    ['f', fieldNamespace(context)],
    ['geo', PREFIXES.geo!],
    ['xsd', PREFIXES.xsd!],
  ];
  const name = (iri: string): string => {
    const [prefix, namespace] = prefixes.find(([, ns]) => iri.startsWith(ns)) ?? [];
    const local = namespace === undefined ? '' : iri.slice(namespace.length);
    return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(local) ? `${prefix}:${local}` : `<${iri}>`;
  };
  const head =
    `@base <${recordsBase(context)}> .\n` +
    prefixes.map(([prefix, ns]) => `@prefix ${prefix}: <${ns}> .\n`).join('') +
    '\n';
  return { name, head };
}

/** Turtle `predicate object(s)` of one property, null when the value is null or an empty list. */
function turtlePredicate(property: RdfProperty, name: (iri: string) => string): Cell {
  const type = property.datatype ? `^^${name(property.datatype)}` : '';
  const literal = cell.concat(
    cell.literal('"'),
    cell.turtleString(property.lexical),
    cell.literal(`"${type}`),
  );
  const objects = property.column.multivalued
    ? cell.join(cell.each(property.column, literal), ', ')
    : literal;
  return cell.whenPresent(property.column, cell.concat(cell.literal(`${name(property.iri)} `), objects));
}

/** Turtle: prefixes, then one subject per row with its predicate list written by the engine. */
function writeTurtle(context: ExportContext) {
  const { name, head } = turtleNames(context);
  const predicates = rdfProperties(context).map((p) => turtlePredicate(p, name));
  const partOf = cell.literal(`${name(IS_PART_OF)} <${datasetRef(context)}>`);
  const sql = statements(context, cell.separated(' ;\n  ', [partOf, ...predicates]));
  let blank = 0;
  const encode = rowLines((text, iri) => `${iri === null ? `_:r${++blank}` : `<${iri}>`} ${text} .\n`);
  return streamQuery(context.engine, sql, encode, { head, tail: '' }, context.signal);
}

/** RDF/XML property elements of one property ('' when null). */
function xmlProperty(property: RdfProperty): Cell {
  const tag = `f:${xmlName(property.column.key)}`;
  const open = `<${tag}${property.datatype ? ` rdf:datatype="${xmlText(property.datatype)}"` : ''}>`;
  const element = cell.concat(cell.literal(open), cell.xml(property.lexical), cell.literal(`</${tag}>`));
  const elements = property.column.multivalued ? cell.join(cell.each(property.column, element), '') : element;
  return cell.coalesce(elements, cell.literal(''));
}

/** RDF/XML: one rdf:Description per row, about its record IRI. */
function writeRdfXml(context: ExportContext) {
  const partOf = cell.literal(`<dct:isPartOf rdf:resource="${xmlText(datasetRef(context))}"/>`);
  const properties = rdfProperties(context).map(xmlProperty);
  const sql = statements(context, cell.concat(partOf, ...properties, cell.literal('</rdf:Description>')));
  const head =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<rdf:RDF xml:base="${xmlText(recordsBase(context))}" xmlns:rdf="${PREFIXES.rdf}" ` +
    `xmlns:dct="${PREFIXES.dct}" xmlns:f="${xmlText(fieldNamespace(context))}">\n`;
  const encode = rowLines(
    (text, iri) => `${iri === null ? '<rdf:Description>' : `<rdf:Description rdf:about="${iri}">`}${text}\n`,
  );
  return streamQuery(context.engine, sql, encode, { head, tail: '</rdf:RDF>\n' }, context.signal);
}

/** JSON-LD: DuckDB's JSON array of rows as the @graph, the @context mapping keys to properties. */
async function writeJsonLd(context: ExportContext) {
  const keyOf = (p: RdfProperty): string => context.options.headers.get(p.column.key) ?? p.column.key;
  const properties = rdfProperties(context);
  // Every value as its lexical form (a string), typed by the @context: the literals of the other syntaxes.
  const values = properties.map((p) => ({
    name: keyOf(p),
    cell: p.column.multivalued ? cell.each(p.column, p.lexical) : p.lexical,
  }));
  const ref = recordRef(context);
  const columns: ShapedColumn[] = [
    ...(ref ? [{ name: '@id', cell: ref }] : []),
    { name: IS_PART_OF, cell: cell.literal(datasetRef(context)) },
    ...values,
  ];
  // Record IRIs relative to @base; isPartOf by its absolute IRI, which no field name is.
  const terms = {
    '@base': recordsBase(context),
    [IS_PART_OF]: { '@type': '@id' },
    ...Object.fromEntries(
      properties.map((p) => [
        keyOf(p),
        p.datatype ? { '@id': p.iri, '@type': p.datatype } : { '@id': p.iri },
      ]),
    ),
  };
  return context.engine.copyToStream(
    shapedSql(context.query, columns),
    { format: 'json', array: true },
    context.signal,
    { head: `{"@context":${JSON.stringify(terms)},"@graph":`, tail: '}\n' },
  );
}

/** The four syntaxes; each wants the record ids of ungrouped rows for the record IRIs. */
export const RDF_FORMATS = {
  turtle: {
    contentType: 'text/turtle; charset=utf-8',
    extension: 'ttl',
    output: 'text',
    geo: false,
    recordIds: true,
    write: writeTurtle,
  },
  n3: {
    contentType: 'text/n3; charset=utf-8',
    extension: 'n3',
    output: 'text',
    geo: false,
    recordIds: true,
    write: writeTurtle,
  },
  rdfxml: {
    contentType: 'application/rdf+xml',
    extension: 'rdf',
    output: 'text',
    geo: false,
    recordIds: true,
    write: writeRdfXml,
  },
  jsonld: {
    contentType: 'application/ld+json',
    extension: 'jsonld',
    output: 'text',
    geo: false,
    recordIds: true,
    write: writeJsonLd,
  },
} satisfies Record<string, Exporter>;
