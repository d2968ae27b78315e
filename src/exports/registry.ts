// The export registry: every format the portal exports, each with what it needs (a geometry, a row
// limit, record ids, the value shapes it wants from the compiler), its content type, extension
// and writer. Three families: dataset exports (v2.1 and v2.0), v1 downloads, catalog exports.
// Every format runs on either engine (ClickHouse's Parquet is encoded by DuckDB), so none names
// one; the zipped ones (shapefile, XLSX) zip their parts in their writers. The engine's own
// writers (csv, json, jsonl, parquet) are adapted here.
import { shapedSql } from '../odsql/index.js';
import { ARROW_FORMAT } from './arrow-format.js';
import type { ExportContext, Exporter } from './export-context.js';
import { V1_CSV, V1_GEOJSON, V1_JSON, type DownloadFormat } from './download-formats.js';
import { DATASET_EXPORT_FORMATS, type CatalogExportFormat, type DatasetExportFormat } from './formats.js';
import { GEO_BINARY_FORMATS } from './geo-binary-formats.js';
import { GEO_TEXT_FORMATS } from './geo-text-formats.js';
import { NATIVE_FORMATS, type NativeFormat } from './native-formats.js';
import { RDF_FORMATS } from './rdf-formats.js';
import { SHAPEFILE_FORMAT } from './shapefile-format.js';
import { XLSX_FORMAT } from './xlsx-format.js';

/** A format the engine writes, as a registry entry: its copy streamed (with a BOM for CSV). */
function copied(format: NativeFormat): Exporter {
  return {
    contentType: format.contentType,
    extension: format.extension,
    output: format.output,
    geo: false,
    write: async (context: ExportContext) => {
      const select = shapedSql(context.query, format.shape(context.columns, context.options));
      const bom = format.extension === 'csv' && context.options.withBom !== false;
      return context.engine.copyToStream(
        select,
        format.copyFormat(context.options, context.columns),
        context.signal,
        {
          head: bom ? '\uFEFF' : '',
        },
      );
    },
  };
}

/** Dataset export formats (`/catalog/datasets/{id}/exports/{format}`). */
export const EXPORTERS = {
  csv: copied(NATIVE_FORMATS.csv),
  json: copied(NATIVE_FORMATS.json),
  jsonl: copied(NATIVE_FORMATS.jsonl),
  parquet: copied(NATIVE_FORMATS.parquet),
  ...GEO_TEXT_FORMATS,
  ...GEO_BINARY_FORMATS,
  ...SHAPEFILE_FORMAT,
  ...RDF_FORMATS,
  ...XLSX_FORMAT,
  ...ARROW_FORMAT,
} satisfies Record<DatasetExportFormat, Exporter>;

/** Formats that write geometries and so refuse a dataset without a geo field. */
export const GEO_EXPORT_FORMATS: ReadonlySet<DatasetExportFormat> = new Set(
  DATASET_EXPORT_FORMATS.filter((format) => EXPORTERS[format].geo),
);

/** The registry entry of a format name, or null when it is not one. */
export function exporterOf(format: string): Exporter | null {
  return Object.hasOwn(EXPORTERS, format) ? EXPORTERS[format as DatasetExportFormat] : null;
}

/** v1 download formats (`/api/records/1.0/download?format=`): v1's record shapes, copied by the engine. */
export const DOWNLOAD_FORMATS = {
  csv: V1_CSV,
  json: V1_JSON,
  geojson: V1_GEOJSON,
} satisfies Record<string, DownloadFormat>;

export type DownloadFormatName = keyof typeof DOWNLOAD_FORMATS;

/** A catalog document format: its media type, extension and serialisation. */
export interface CatalogDocumentFormat {
  readonly contentType: string;
  readonly extension: string;
  readonly kind: 'rdfxml' | 'turtle' | 'rss';
  /** The DCAT-AP profile whose conformance the catalog declares, if any. */
  readonly profile?: string;
}

const rdfXml = (profile?: string): CatalogDocumentFormat => ({
  contentType: 'application/rdf+xml',
  extension: 'rdf',
  kind: 'rdfxml',
  ...(profile && { profile }),
});

/** Document formats of the catalog export (supplement 1); `-` spellings are normalised to `_`. */
export const CATALOG_RDF_FORMATS: Readonly<Record<string, CatalogDocumentFormat>> = {
  rdf: rdfXml(),
  ttl: { contentType: 'text/turtle; charset=utf-8', extension: 'ttl', kind: 'turtle' },
  rss: { contentType: 'application/rss+xml', extension: 'rss', kind: 'rss' },
  dcat_ap_ch: rdfXml('https://www.dcat-ap.ch/'),
  dcat_ap_de: rdfXml('http://dcat-ap.de/def/dcatde/'),
  dcat_ap_se: rdfXml('https://docs.dataportal.se/dcat/'),
  dcat_ap_sp: rdfXml('https://datos.gob.es/es/documentacion/dcat-ap-es'),
  dcat_ap_it: rdfXml('http://dati.gov.it/onto/dcatapit'),
  dcat_ap_vl: rdfXml('https://data.vlaanderen.be/doc/applicatieprofiel/DCAT-AP-VL/'),
  dcat_ap_benap: rdfXml('https://dcat.be/'),
};

/** Values of `dcat_ap_format`, which the `dcat` format requires: `dcat` + value names a profile above. */
export const DCAT_AP_FORMATS = [
  '_ap_ch',
  '_ap_de',
  '_ap_se',
  '_ap_sp',
  '_ap_it',
  '_ap_vl',
  '_ap_benap',
] as const;
export type DcatApFormat = (typeof DCAT_AP_FORMATS)[number];

/**
 * A catalog export format: a table of the catalog written by a dataset export format, a document
 * of the catalog, or (`dcat`) the document of the profile its `dcat_ap_format` names.
 */
export type CatalogFormat =
  | { readonly table: Exporter }
  | { readonly document: CatalogDocumentFormat }
  | { readonly profileParameter: 'dcat_ap_format' };

const document = (name: string): CatalogFormat => ({ document: CATALOG_RDF_FORMATS[name]! });

/** Catalog export formats (`/catalog/exports/{format}`). */
export const CATALOG_FORMATS = {
  csv: { table: EXPORTERS.csv },
  json: { table: EXPORTERS.json },
  jsonl: { table: EXPORTERS.jsonl },
  xlsx: { table: EXPORTERS.xlsx },
  rdf: document('rdf'),
  ttl: document('ttl'),
  rss: document('rss'),
  dcat: { profileParameter: 'dcat_ap_format' },
  dcat_ap_ch: document('dcat_ap_ch'),
  dcat_ap_de: document('dcat_ap_de'),
  dcat_ap_se: document('dcat_ap_se'),
  dcat_ap_sp: document('dcat_ap_sp'),
  dcat_ap_it: document('dcat_ap_it'),
  dcat_ap_vl: document('dcat_ap_vl'),
  dcat_ap_benap: document('dcat_ap_benap'),
} satisfies Record<CatalogExportFormat, CatalogFormat>;
