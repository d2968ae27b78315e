// The export registry: every dataset export format with its content type, extension, needs and
// writer. The engine's own writers (csv, json, jsonl, parquet) are adapted here.
import { shapedSql } from '../odsql/index.js';
import { ARROW_FORMAT } from './arrow-format.js';
import type { ExportContext, Exporter } from './export-context.js';
import { DATASET_EXPORT_FORMATS, type DatasetExportFormat } from './formats.js';
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
