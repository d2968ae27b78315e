// A v1 download: every record the query selects (record ids included) in a v1 format, copied by
// the engine between the format's frame.
import { compileQuery, shapedSql, type QueryParams } from '../odsql/index.js';
import type { PreparedExport } from './export-context.js';
import type { ExportTarget } from './dataset-export.js';
import { DOWNLOAD_FORMATS, type DownloadFormatName } from './registry.js';

/** What a download's CSV is asked for: labels as headers (use_labels_for_header), its separator. */
export interface DownloadCsv {
  readonly useLabels: boolean;
  readonly delimiter: string;
}

/** The v1 download of the records `query` selects (its page included) in `format`. */
export function prepareDownload(
  format: DownloadFormatName,
  target: Omit<ExportTarget, 'sourceUrl'> & { readonly recordTimestamp: string | null },
  query: QueryParams,
  csv: DownloadCsv = { useLabels: false, delimiter: ';' },
): PreparedExport {
  const writer = DOWNLOAD_FORMATS[format];
  const compiled = compileQuery(target.source, { ...query, withRecordId: true }, writer.output);
  const labels = new Map(target.source.fields.map((f) => [f.name, f.label]));
  const context = {
    datasetId: target.name,
    recordTimestamp: target.recordTimestamp,
    delimiter: csv.delimiter,
    ...(csv.useLabels && {
      headers: new Map(compiled.columns.map((c) => [c.key, labels.get(c.key) ?? c.key])),
    }),
  };
  const shaped = writer.shape(compiled.columns, context);
  return {
    name: target.name,
    extension: format,
    contentType: writer.contentType,
    memory: null,
    write: () =>
      target.engine.copyToStream(shapedSql(compiled, shaped), writer.copyFormat(context), target.signal, {
        head: writer.prefix,
        tail: writer.suffix,
      }),
  };
}
