// v1 download: every matching record streamed as csv, json or geojson by the export writers' COPY.
import { PassThrough, type Readable } from 'node:stream';
import type Router from '@koa/router';
import { compileQuery, type OutputColumn } from '../../odsql/index.js';
import { copyToStream } from '../../exports/copy-stream.js';
import { NATIVE_FORMATS, type ExportOptions } from '../../exports/native-formats.js';
import { callerState } from '../../auth/middleware.js';
import { quoteIdentifier, quoteString } from '../../sql-text.js';
import { ApiError } from '../errors.js';
import { oneOf, parseParams } from '../params.js';
import { requireDataSource, signalOf, type Services } from '../services.js';
import { datasetParam } from './records-v1.js';
import { facetParamsOf, v1QueryParams, v1RecordsParams } from './v1-query.js';

/** Parameters of the download: those of the record search and the format. */
export const v1DownloadParams = v1RecordsParams.extend({
  format: oneOf('format', ['csv', 'json', 'geojson'], 'csv'),
});

/** The GeoJSON geometry of the first geographic column, as SQL over the 'json' output. */
function geometrySql(columns: readonly OutputColumn[]): string {
  const point = columns.find((c) => c.type === 'geo_point_2d');
  if (point) {
    const p = quoteIdentifier(point.key);
    return `CASE WHEN ${p} IS NULL THEN NULL ELSE json_object('type', 'Point', 'coordinates', json_array(${p}.lon, ${p}.lat)) END`;
  }
  const shape = columns.find((c) => c.type === 'geo_shape');
  return shape ? `json_extract(${quoteIdentifier(shape.key)}, '$.geometry')` : 'NULL::JSON';
}

/** Features with every column in `properties`, written as one JSON array inside a collection. */
const GEOJSON = {
  select: (columns: readonly OutputColumn[]) =>
    `'Feature' AS "type", ${geometrySql(columns)} AS geometry, json_object(${columns
      .map((c) => `${quoteString(c.key)}, ${quoteIdentifier(c.key)}`)
      .join(', ')}) AS properties`,
  copyOptions: 'FORMAT json, ARRAY true',
};

const OPTIONS: ExportOptions = {
  headers: new Map(),
  delimiter: ';',
  listSeparator: ',',
  quoteAll: false,
  parquetCompression: 'snappy',
};

/**
 * The COPY output between a prefix and a suffix; a failure mid-way breaks the body, and a client
 * gone stops the COPY's reader.
 */
function wrapped(stream: Readable, prefix: string, suffix: string): PassThrough {
  const body = new PassThrough();
  if (prefix) body.write(prefix);
  stream.pipe(body, { end: false });
  stream.once('end', () => body.end(suffix || undefined));
  stream.once('error', (error) => body.destroy(error));
  body.once('close', () => stream.destroy());
  return body;
}

/** Mounts the v1 download on a router rooted at /api. */
export function v1DownloadRoutes(router: Router, services: Services): void {
  router.get('/records/1.0/download', async (ctx) => {
    const params = parseParams(v1DownloadParams, ctx.query);
    const { dataset, source } = requireDataSource(services, ctx, datasetParam(params));
    const format = params.format!;
    const compiled = compileQuery(source, v1QueryParams(source, params, facetParamsOf(ctx.query)), 'json');
    const select =
      format === 'geojson'
        ? GEOJSON.select(compiled.columns)
        : NATIVE_FORMATS[format].select(compiled.columns, OPTIONS);
    const copyOptions =
      format === 'geojson' ? GEOJSON.copyOptions : NATIVE_FORMATS[format].copyOptions(OPTIONS);
    const release = services.guard.exportSlots().acquire(callerState(ctx).caller);
    if (!release) {
      throw new ApiError(
        429,
        'TooManyExports',
        'Too many exports are running for you: wait for one to finish.',
        {
          'Retry-After': '5',
        },
      );
    }
    try {
      const stream = await copyToStream(
        services.engine,
        `SELECT ${select} FROM (${compiled.sql})`,
        copyOptions,
        signalOf(ctx),
      );
      stream.once('close', release);
      const [prefix, suffix] =
        format === 'geojson' ? ['{"type":"FeatureCollection","features":', '}'] : ['', ''];
      ctx.type = format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8';
      ctx.attachment(`${dataset.id}.${format}`);
      ctx.body = wrapped(stream, prefix, suffix);
    } catch (error) {
      release();
      throw error;
    }
  });
}
