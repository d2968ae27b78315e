// A dataset export checked against its format's needs before the first byte: the compiled query,
// a geometry for the geo formats, a known coordinate system, the row limit of a sheet, the
// fields GPX names. Every refusal here is a 400 (ExportRefused) or the compiler's QueryLangError.
import type { QuerySource } from '../odsql/source.js';
import type { Engine } from '../engine/engine.js';
import { compileQuery, type OutputColumn, type QueryParams } from '../odsql/index.js';
import type { ExportContext, Exporter, GpxOptions, PreparedExport } from './export-context.js';
import { geometryColumn } from './geometry.js';
import type { ExportOptions } from './native-formats.js';
import { projectionOf } from './projection.js';
import { exporterOf } from './registry.js';
import { ExportRefused, refusedParameter, unknownFormat } from './refusal.js';

/** What the request asks of the export beyond its rows' filter (explore-api.md, export parameters). */
export interface ExportRequest extends Omit<ExportOptions, 'headers'> {
  readonly limit: number;
  readonly offset: number;
  readonly useLabels: boolean;
  readonly epsg: number;
  /** GPX: the field naming each point, the fields describing it, the attributes as extensions. */
  readonly nameField: string | undefined;
  readonly descriptionFieldList: string | undefined;
  readonly useExtension: boolean;
}

/** Where the rows come from and what the export is called. */
export interface ExportTarget {
  readonly engine: Engine;
  readonly source: QuerySource;
  /** File name stem and the namespace of RDF properties. */
  readonly name: string;
  /** The absolute URL of the source read through (`<api>/catalog`, `<api>/monitoring`): RDF and links name datasets under it. */
  readonly sourceUrl: string;
  readonly signal: AbortSignal;
}

/** The registry entry of a dataset export format, or the refusal naming it. */
export function datasetExporter(format: string): Exporter {
  const exporter = exporterOf(format);
  if (!exporter) throw unknownFormat(format);
  return exporter;
}

/** The GPX options, each field they name checked against the exported columns. */
function gpxOptions(request: ExportRequest, columns: readonly OutputColumn[]): GpxOptions {
  const keys = columns.map((c) => c.key);
  const known = (parameter: string) => (name: string) => {
    if (keys.includes(name)) return name;
    const some = keys.length > 10 ? `${keys.slice(0, 10).join(', ')}, ...` : keys.join(', ');
    throw refusedParameter(parameter, `${name} is not a field of the export: one of ${some} is expected.`);
  };
  const listed = (request.descriptionFieldList ?? '').split(',').map((f) => f.trim());
  return {
    nameField: request.nameField === undefined ? null : known('name_field')(request.nameField),
    descriptionFields: listed.filter(Boolean).map(known('description_field_list')),
    useExtension: request.useExtension,
  };
}

/** Refuses a geo format without a geometry among the exported columns. */
function checkGeometry(exporter: Exporter, target: ExportTarget, columns: readonly OutputColumn[]): void {
  if (!exporter.geo || geometryColumn(columns)) return;
  const hasGeo = target.source.fields.some((f) => f.type === 'geo_point_2d' || f.type === 'geo_shape');
  throw refusedParameter(
    'format',
    hasGeo
      ? 'this format writes geometries: select a geo_point_2d or geo_shape field.'
      : `dataset ${target.name} has no geo_point_2d or geo_shape field, which this format needs.`,
  );
}

/** Refuses more rows than the format holds: the records API's total (its count cache), cut as the page cuts it. */
async function checkRowLimit(
  exporter: Exporter,
  target: ExportTarget,
  countSql: string,
  request: ExportRequest,
): Promise<void> {
  if (exporter.maxRows === undefined) return;
  const total = await target.engine.count(countSql, target.signal);
  const rest = Math.max(0, total - request.offset);
  const rows = request.limit >= 0 ? Math.min(rest, request.limit) : rest;
  if (rows > exporter.maxRows) {
    throw new ExportRefused(
      null,
      `The export has ${rows} rows, more than the ${exporter.maxRows} a sheet of this format holds: filter it or use limit.`,
    );
  }
}

/** The export's context: the compiled query (rows cut by `request`) checked against the format's needs. */
async function exportContext(
  exporter: Exporter,
  target: ExportTarget,
  filter: QueryParams,
  request: ExportRequest,
): Promise<ExportContext> {
  const query: QueryParams = {
    ...filter,
    limit: request.limit,
    offset: request.offset,
    withRecordId: exporter.recordIds === true,
  };
  const compiled = compileQuery(target.source, query, exporter.output);
  checkGeometry(exporter, target, compiled.columns);
  const projection = await projectionOf(request.epsg);
  if (!projection) throw refusedParameter('epsg', `${request.epsg} is not a known EPSG coordinate system.`);
  await checkRowLimit(exporter, target, compiled.countSql, request);
  const labels = new Map(target.source.fields.map((f) => [f.name, f.label]));
  const { delimiter, listSeparator, quoteAll, parquetCompression, withBom } = request;
  return {
    engine: target.engine,
    name: target.name,
    sourceUrl: target.sourceUrl,
    query: compiled,
    columns: compiled.columns,
    recordIds: exporter.recordIds === true && !compiled.grouped,
    options: {
      headers: new Map(
        compiled.columns.map((c) => [c.key, request.useLabels ? (labels.get(c.key) ?? c.key) : c.key]),
      ),
      delimiter,
      listSeparator,
      quoteAll,
      parquetCompression,
      withBom,
    },
    projection,
    gpx: gpxOptions(request, compiled.columns),
    signal: target.signal,
  };
}

/**
 * The export of `target`'s rows that `filter` selects, in `exporter`'s format, checked against
 * its needs; written once the caller holds the memory its holistic aggregations may take.
 */
export async function prepareDatasetExport(
  exporter: Exporter,
  target: ExportTarget,
  filter: QueryParams,
  request: ExportRequest,
): Promise<PreparedExport> {
  const context = await exportContext(exporter, target, filter, request);
  return {
    name: target.name,
    extension: exporter.extension,
    contentType: exporter.contentType,
    memory: { engine: target.engine, bytes: context.query.holisticBytes },
    write: () => exporter.write(context),
  };
}
