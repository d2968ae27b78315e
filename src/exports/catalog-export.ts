// A catalog export checked against its format's needs before the first byte: a table of the
// catalog through a dataset export format, or a document (DCAT, RSS) of the datasets it selects.
import { Readable } from 'node:stream';
import type { Attachment } from '../catalog/attachments.js';
import { compileQuery, type QueryParams } from '../odsql/index.js';
import { writeCatalogRdf } from './catalog-exports.js';
import { prepareDatasetExport, type ExportRequest, type ExportTarget } from './dataset-export.js';
import type { Exporter, PreparedExport } from './export-context.js';
import {
  CATALOG_FORMATS,
  CATALOG_RDF_FORMATS,
  DCAT_AP_FORMATS,
  type CatalogDocumentFormat,
  type DcatApFormat,
} from './registry.js';
import { refusedParameter, unknownFormat } from './refusal.js';

/** A catalog export's request: the dataset export's, plus the DCAT document's. */
export interface CatalogExportRequest extends ExportRequest {
  readonly dcatApFormat: DcatApFormat | undefined;
  /** Export formats listed as distributions (null: all a dataset offers). */
  readonly includeExports: readonly string[] | null;
  readonly useLabelsInExports: boolean;
}

/** What a catalog document needs of the portal and of the caller. */
export interface CatalogDocumentSource {
  /** The portal's title (portal.json), naming the catalog and the feed. */
  readonly title: string;
  /** Whether the caller may read a dataset's data: no distribution is listed for one it cannot. */
  readonly readable: (datasetId: string) => boolean;
  /** The attachments of a dataset the caller is served, each listed as a distribution. */
  readonly attachmentsOf: (datasetId: string) => readonly Attachment[];
}

/**
 * The format a catalog export path names (`-` spelled `_`): the table's writer or the document's
 * format, `dcat` the profile its `dcat_ap_format` names; a 400 when unknown or `dcat` lacks it.
 */
export function catalogFormat(
  pathFormat: string,
  dcatApFormat: DcatApFormat | undefined,
): { table: Exporter } | { document: CatalogDocumentFormat } {
  const format = pathFormat.replaceAll('-', '_');
  if (!Object.hasOwn(CATALOG_FORMATS, format)) throw unknownFormat(pathFormat);
  const entry = CATALOG_FORMATS[format as keyof typeof CATALOG_FORMATS];
  if (!('profileParameter' in entry)) return entry;
  if (dcatApFormat === undefined) {
    throw refusedParameter(
      'dcat_ap_format',
      `the dcat format requires it: one of ${DCAT_AP_FORMATS.join(', ')} is expected.`,
    );
  }
  return { document: CATALOG_RDF_FORMATS[`dcat${dcatApFormat}`]! };
}

/**
 * The catalog export in the format `pathFormat` names of the catalog rows `filter` selects
 * (`generation`: the API version's query options, which only tables use).
 */
export async function prepareCatalogExport(
  pathFormat: string,
  target: ExportTarget,
  query: { filter: QueryParams; generation: Partial<QueryParams> },
  request: CatalogExportRequest,
  portal: CatalogDocumentSource,
): Promise<PreparedExport> {
  const format = catalogFormat(pathFormat, request.dcatApFormat);
  if ('table' in format) {
    return prepareDatasetExport(format.table, target, { ...query.filter, ...query.generation }, request);
  }
  const { document } = format;
  const rows = { ...query.filter, limit: request.limit, offset: request.offset };
  const compiled = compileQuery(target.source, { ...rows, select: undefined, groupBy: undefined }, 'json');
  // A document of the catalog, small and written whole, but an export all the same: it holds a slot.
  return {
    name: target.name,
    extension: document.extension,
    contentType: document.contentType,
    memory: null,
    write: async () => {
      const found = await target.engine.queryJson(compiled.sql, [], target.signal);
      const text = writeCatalogRdf(document, found, {
        source: target.sourceUrl,
        title: portal.title,
        includeExports: request.includeExports,
        useLabels: request.useLabelsInExports,
        readable: portal.readable,
        attachmentsOf: portal.attachmentsOf,
      });
      return Readable.from([text]);
    },
  };
}
