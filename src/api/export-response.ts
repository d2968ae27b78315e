// Every export leaves through here (v2.1 dataset and catalog exports, the v1 download): one of
// the caller's export slots is held while it is written and streamed, and the client must read
// it faster than the portal's minimum transfer rate.
import { pipeline } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { Context } from 'koa';
import type { Engine } from '../engine/engine.js';
import { callerState } from '../http/auth-middleware.js';
import type { PreparedExport } from '../exports/export-context.js';
import { enforceTransferFloor } from '../http/transfer-floor.js';
import { ApiError } from '../http/errors.js';
import { markExport } from './operations.js';
import { signalOf, whenClosed, type Services } from '../http/services.js';

/**
 * Takes an export slot (429 TooManyExports when the caller has none left), writes the export
 * (`compressed` gzips it and adds `.gz` to its name) and streams its body; the slot is released
 * when the body closes, whatever ended it.
 */
export async function sendExport(
  ctx: Context,
  services: Services,
  file: PreparedExport,
  compressed: boolean,
): Promise<void> {
  const release = await services.guard.exportSlots().acquire(callerState(ctx).caller);
  if (!release) {
    services.metrics.refused('exports');
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
    if (file.memory) await holdExportMemory(ctx, file.memory.engine, file.memory.bytes);
    const body = await file.write();
    body.once('close', release);
    ctx.type = compressed ? 'application/gzip' : file.contentType;
    ctx.attachment(`${file.name}.${file.extension}${compressed ? '.gz' : ''}`);
    // pipeline, not pipe: a failure mid-export must break the gzip stream too, and a client
    // gone destroys the body, which stops its writer.
    ctx.body = compressed ? pipeline(body, createGzip({ level: 6 }), () => undefined) : body;
    markExport(ctx, file.extension);
  } catch (error) {
    release();
    throw error;
  }
  const floor = services.portal().settings.quotas.export_min_rate;
  if (floor) {
    enforceTransferFloor(
      ctx.res,
      { bytesPerSecond: floor.bytes_per_second, windowMs: floor.window_seconds * 1000 },
      (sent) =>
        services.log.warn(
          `export ${ctx.path}: client cut off, ${sent} bytes in ${floor.window_seconds} s is below ${floor.bytes_per_second} B/s`,
        ),
    );
  }
}

/**
 * Reserves the memory an export's holistic aggregations may hold (Engine.reserveMemory) until its
 * response closes: a COPY blocked on a slow reader keeps its states until it is read or cut.
 */
async function holdExportMemory(ctx: Context, engine: Engine, bytes: number): Promise<void> {
  whenClosed(ctx, await engine.reserveMemory(bytes, signalOf(ctx)));
}
