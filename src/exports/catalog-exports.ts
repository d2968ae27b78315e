// The catalog's documents: DCAT (RDF/XML, Turtle, the DCAT-AP profiles) and RSS of the datasets
// (the catalog's tabular formats are the dataset export writers over the catalog table).
import type { JsonValue } from '../engine/engine.js';
import type { Attachment } from '../catalog/attachments.js';
import { DATASET_EXPORT_FORMATS } from './formats.js';
import { PREFIXES, toRdfXml, toTurtle, type Term, type Triple } from './rdf-graph.js';
import { GEO_EXPORT_FORMATS, type CatalogDocumentFormat } from './registry.js';

/** Options of a catalog document. */
export interface CatalogDocumentOptions {
  /** The absolute URL of the source read through (`<api>/catalog`, `<api>/monitoring`): the documents name datasets under it. */
  readonly source: string;
  /** The portal's title (portal.json), naming the catalog and the feed. */
  readonly title: string;
  /** Export formats listed as distributions (null: all a dataset offers). */
  readonly includeExports: readonly string[] | null;
  readonly useLabels: boolean;
  /** Whether the caller may read a dataset's data: no distribution is listed for one it cannot. */
  readonly readable: (datasetId: string) => boolean;
  /** The attachments of a dataset the caller is served, each listed as a distribution. */
  readonly attachmentsOf: (datasetId: string) => readonly Attachment[];
}

type Row = Record<string, JsonValue>;

/** A JSON value as text: strings as they are, other values as JSON. */
const asText = (value: JsonValue): string => (typeof value === 'string' ? value : JSON.stringify(value));
const textOf = (value: JsonValue | undefined): string | null =>
  value === null || value === undefined || value === '' ? null : asText(value);
const listOf = (value: JsonValue | undefined): string[] => {
  if (Array.isArray(value)) return value.map(asText);
  const text = textOf(value);
  return text === null ? [] : [text];
};

const iri = (value: string): Term => ({ iri: value });
const literal = (value: string, datatype?: string): Term =>
  datatype ? { literal: value, datatype } : { literal: value };

/** The export formats a dataset row offers as distributions. */
function distributionsOf(row: Row, options: CatalogDocumentOptions): string[] {
  const geo = listOf(row.features).includes('geo');
  if (!options.readable(asText(row.dataset_id!))) return [];
  return DATASET_EXPORT_FORMATS.filter(
    (f) =>
      (geo || !GEO_EXPORT_FORMATS.has(f)) && (!options.includeExports || options.includeExports.includes(f)),
  );
}

/** The DCAT triples of one dataset row. */
function datasetTriples(row: Row, options: CatalogDocumentOptions, index: number): Triple[] {
  const id = asText(row.dataset_id!);
  const self = `${options.source}/datasets/${encodeURIComponent(id)}`;
  const subject = iri(self);
  const { dcat, dct, foaf, rdf, xsd } = PREFIXES;
  const triples: Triple[] = [
    [subject, `${rdf}type`, iri(`${dcat}Dataset`)],
    [subject, `${dct}identifier`, literal(id)],
    [subject, `${dcat}landingPage`, iri(self)],
  ];
  const optional: [string, string | null, string?][] = [
    [`${dct}title`, textOf(row.title)],
    [`${dct}description`, textOf(row.description)],
    [`${dct}language`, textOf(row.language)],
    [`${dct}modified`, textOf(row.modified), `${xsd}dateTime`],
  ];
  for (const [predicate, value, datatype] of optional) {
    if (value !== null) triples.push([subject, predicate, literal(value, datatype)]);
  }
  for (const keyword of [...listOf(row.keyword), ...listOf(row.theme)]) {
    triples.push([subject, `${dcat}keyword`, literal(keyword)]);
  }
  const publisher = textOf(row.publisher);
  if (publisher) {
    const agent: Term = { blank: `publisher${index}` };
    triples.push(
      [subject, `${dct}publisher`, agent],
      [agent, `${rdf}type`, iri(`${foaf}Agent`)],
      [agent, `${foaf}name`, literal(publisher)],
    );
  }
  const license = textOf(row.license_url);
  for (const format of distributionsOf(row, options)) {
    const url = `${self}/exports/${format}${options.useLabels ? '?use_labels=true' : ''}`;
    const about = { iri: `${self}/exports/${format}`, url, title: `${id}.${format}`, license };
    triples.push(...distributionTriples(subject, about, [`${dct}format`, literal(format)]));
  }
  for (const attachment of options.attachmentsOf(id)) {
    const url = `${self}/attachments/${encodeURIComponent(attachment.id)}`;
    const mediaType = iri(`https://www.iana.org/assignments/media-types/${attachment.mimeType}`);
    const about = { iri: url, url, title: attachment.title, license };
    triples.push(...distributionTriples(subject, about, [`${dcat}mediaType`, mediaType]));
  }
  return triples;
}

/** One distribution of the dataset `subject`: its IRI, title, format, URLs and license. */
function distributionTriples(
  subject: Term,
  about: { iri: string; url: string; title: string; license: string | null },
  format: readonly [string, Term],
): Triple[] {
  const { dcat, dct, rdf } = PREFIXES;
  const distribution = iri(about.iri);
  const triples: Triple[] = [
    [subject, `${dcat}distribution`, distribution],
    [distribution, `${rdf}type`, iri(`${dcat}Distribution`)],
    [distribution, `${dct}title`, literal(about.title)],
    [distribution, format[0], format[1]],
    [distribution, `${dcat}accessURL`, iri(about.url)],
    [distribution, `${dcat}downloadURL`, iri(about.url)],
  ];
  if (about.license) triples.push([distribution, `${dct}license`, iri(about.license)]);
  return triples;
}

/** The catalog's triples: the catalog resource, its datasets and their distributions. */
function catalogTriples(
  rows: readonly Row[],
  format: CatalogDocumentFormat,
  options: CatalogDocumentOptions,
): Triple[] {
  const { dcat, dct, rdf } = PREFIXES;
  const catalog = iri(options.source);
  const triples: Triple[] = [
    [catalog, `${rdf}type`, iri(`${dcat}Catalog`)],
    [catalog, `${dct}title`, literal(options.title)],
  ];
  if (format.profile) triples.push([catalog, `${dct}conformsTo`, iri(format.profile)]);
  rows.forEach((row) =>
    triples.push([
      catalog,
      `${dcat}dataset`,
      iri(`${options.source}/datasets/${encodeURIComponent(asText(row.dataset_id!))}`),
    ]),
  );
  rows.forEach((row, i) => triples.push(...datasetTriples(row, options, i)));
  return triples;
}

const xml = (text: string): string =>
  text
    .replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]/g, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');

/** RSS 2.0: one item per dataset, newest first as the rows come. */
function toRss(rows: readonly Row[], options: CatalogDocumentOptions): string {
  const items = rows.map((row) => {
    const link = `${options.source}/datasets/${encodeURIComponent(asText(row.dataset_id!))}`;
    const modified = textOf(row.modified);
    return [
      '<item>',
      `<title>${xml(textOf(row.title) ?? asText(row.dataset_id!))}</title>`,
      `<link>${xml(link)}</link>`,
      `<guid isPermaLink="true">${xml(link)}</guid>`,
      `<description>${xml(textOf(row.description) ?? '')}</description>`,
      ...listOf(row.theme).map((t) => `<category>${xml(t)}</category>`),
      modified ? `<pubDate>${new Date(modified).toUTCString()}</pubDate>` : '',
      '</item>',
    ].join('');
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>${xml(options.title)}</title><link>${xml(options.source)}/datasets</link><description>Datasets of this portal</description>\n${items.join('\n')}\n</channel></rss>\n`;
}

/** Dataset ids are identifiers (ASCII), whose code unit order is the engine's byte order. */
const byDatasetId = (a: Row, b: Row): number => {
  const [x, y] = [asText(a.dataset_id ?? null), asText(b.dataset_id ?? null)];
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The document of a catalog format over the catalog rows (filtered by the request), by dataset id. */
export function writeCatalogRdf(
  format: CatalogDocumentFormat,
  unsorted: readonly Row[],
  options: CatalogDocumentOptions,
): string {
  const rows = [...unsorted].sort(byDatasetId);
  if (format.kind === 'rss') return toRss(rows, options);
  const triples = catalogTriples(rows, format, options);
  return format.kind === 'turtle' ? toTurtle(triples) : toRdfXml(triples);
}
