// Every export leaves through here (v2.1 dataset and catalog exports, the v1 download): one of
// the caller's export slots is held while it is written and streamed, and the client must read
// it faster than the portal's minimum transfer rate.
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { Context } from 'koa';
import type { Engine } from '../engine/engine.js';
import { callerState } from './auth-middleware.js';
import { enforceTransferFloor } from '../exports/transfer-floor.js';
import { ApiError } from './errors.js';
import { markExport } from './operations.js';
import { signalOf, whenClosed, type Services } from './services.js';

/** How the file is named and typed; `compressed` gzips it (and adds `.gz`). */
export interface ExportFile {
  readonly name: string;
  readonly extension: string;
  readonly contentType: string;
  readonly compressed: boolean;
}

/**
 * Takes an export slot (429 TooManyExports when the caller has none left), runs `write` and
 * streams its body; the slot is released when the body closes, whatever ended it.
 */
export async function sendExport(
  ctx: Context,
  services: Services,
  file: ExportFile,
  write: () => Promise<Readable>,
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
    const body = await write();
    body.once('close', release);
    ctx.type = file.compressed ? 'application/gzip' : file.contentType;
    ctx.attachment(`${file.name}.${file.extension}${file.compressed ? '.gz' : ''}`);
    // pipeline, not pipe: a failure mid-export must break the gzip stream too, and a client
    // gone destroys the body, which stops its writer.
    ctx.body = file.compressed ? pipeline(body, createGzip({ level: 6 }), () => undefined) : body;
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
export async function holdExportMemory(ctx: Context, engine: Engine, bytes: number): Promise<void> {
  whenClosed(ctx, await engine.reserveMemory(bytes, signalOf(ctx)));
}
