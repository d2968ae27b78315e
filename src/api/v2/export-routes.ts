// v2.1 dataset exports in the formats DuckDB writes itself (csv, json, jsonl, parquet), streamed.
import { PassThrough, pipeline } from 'node:stream';
import { createGzip } from 'node:zlib';
import type Router from '@koa/router';
import { z } from 'zod';
import { compileQuery } from '../../odsql/index.js';
import { copyToStream } from '../../exports/copy-stream.js';
import { NATIVE_FORMATS, type ExportOptions, type NativeFormatName } from '../../exports/native-formats.js';
import { ApiError } from '../errors.js';
import { boolean, integer, oneOf, parseParams } from '../params.js';
import { filterParams, toQueryParams } from '../query-context.js';
import { requireDataSource, signalOf, type Services } from '../services.js';
import { callerState } from '../../auth/middleware.js';

/** Parameters of a dataset export (explore-api.md, export-specific parameters). */
export const exportParams = filterParams.extend({
  limit: integer('limit', { min: -1, max: null, default: -1 }),
  offset: integer('offset', { min: 0, max: null, default: 0 }),
  use_labels: boolean('use_labels', false),
  compressed: boolean('compressed', false),
  delimiter: oneOf('delimiter', [';', ',', '\t', '|'], ';'),
  list_separator: z
    .custom<string | string[] | undefined>()
    .optional()
    .transform((raw) => (Array.isArray(raw) ? raw[raw.length - 1] : raw) || ','),
  quote_all: boolean('quote_all', false),
  with_bom: boolean('with_bom', true),
  parquet_compression: oneOf('parquet_compression', ['snappy', 'zstd'], 'snappy'),
});

const isNative = (format: string): format is NativeFormatName => Object.hasOwn(NATIVE_FORMATS, format);

/** Mounts the dataset export operation. */
export function exportRoutes(router: Router, services: Services): void {
  router.get('/catalog/datasets/:dataset_id/exports/:format', async (ctx) => {
    const { dataset, source } = requireDataSource(services, ctx, ctx.params.dataset_id!);
    const format = ctx.params.format!;
    if (!isNative(format)) {
      throw new ApiError(
        400,
        'InvalidRESTParameterError',
        `Unknown or unavailable export format: ${format}.`,
      );
    }
    const params = parseParams(exportParams, ctx.query);
    const writer = NATIVE_FORMATS[format];
    const compiled = compileQuery(
      source,
      { ...toQueryParams(source, params), limit: params.limit, offset: params.offset },
      writer.output,
    );
    const labels = new Map(source.fields.map((f) => [f.name, f.label]));
    const options: ExportOptions = {
      headers: new Map(
        compiled.columns.map((c) => [c.key, params.use_labels ? (labels.get(c.key) ?? c.key) : c.key]),
      ),
      delimiter: params.delimiter!,
      listSeparator: params.list_separator,
      quoteAll: params.quote_all,
      parquetCompression: params.parquet_compression!,
    };
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
      const select = `SELECT ${writer.select(compiled.columns, options)} FROM (${compiled.sql})`;
      const stream = await copyToStream(services.engine, select, writer.copyOptions(options), signalOf(ctx));
      stream.once('close', release);
      const body = new PassThrough();
      if (format === 'csv' && params.with_bom) body.write('\uFEFF');
      // pipeline: a client gone destroys the body, which closes the pipe's reader (DuckDB's
      // write then fails and the COPY ends) on top of the interrupt the signal sends.
      pipeline(stream, body, () => undefined);
      const fileName = `${dataset.id}.${writer.extension}${params.compressed ? '.gz' : ''}`;
      ctx.type = params.compressed ? 'application/gzip' : writer.contentType;
      ctx.attachment(fileName);
      // pipeline, not pipe: a failure mid-export must break the gzip stream too.
      ctx.body = params.compressed ? pipeline(body, createGzip({ level: 6 }), () => undefined) : body;
    } catch (error) {
      release();
      throw error;
    }
  });
}
