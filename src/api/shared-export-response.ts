// The whole export of a dataset sent as a file (docs/exports.md, Shared files): only the unfiltered
// export in its default form, of a dataset in the portal's Parquet, to a caller who sees every
// field and every row, gets it; any other export is computed. A request that finds no file yet is
// computed too, and starts the file's writing in the background.
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Context } from 'koa';
import type { z } from 'zod';
import type { Dataset } from '../catalog/portal.js';
import type { Engine } from '../engine/engine.js';
import type { PreparedExport } from '../exports/export-context.js';
import {
  SHARED_EXPORT_FORMATS,
  sharedExportPath,
  sharedExportReady,
  writeSharedExport,
} from '../exports/shared-export.js';
import { sendFile } from '../http/file-response.js';
import { answerValidators } from '../http/http-caching.js';
import { accessOf, type Services } from '../http/services.js';
import { markExport } from './operations.js';
import { parseParams } from './params.js';
import { isV20 } from './v20/generation.js';

/** The header telling a client (and the tests) that the answer is the shared file. */
export const SHARED_EXPORT_HEADER = 'Duckportal-Export';

/** A request that may be answered by a shared file: where the file is, what it is sent as. */
export interface SharedExport {
  readonly file: string;
  readonly dataset: Dataset;
  readonly extension: string;
  readonly contentType: string;
}

/** What decides whether an export may be the shared file. */
export interface SharedExportAsk {
  readonly dataset: Dataset;
  readonly engine: Engine;
  readonly format: string;
  readonly contentType: string;
  /** The parameters as parsed, and their schema (whose parse of no parameter is the default form). */
  readonly params: unknown;
  readonly schema: z.ZodType;
}

/**
 * The shared export this request may get, or null: a known format, parameters equal to the
 * defaults, the portal's DuckDB (an attached dataset's version does not follow its table), a
 * known version, and a caller who sees every field and every row.
 */
export function sharedExportOf(ctx: Context, services: Services, ask: SharedExportAsk): SharedExport | null {
  const { dataset, format } = ask;
  if (!services.http.sharedExports || !SHARED_EXPORT_FORMATS.has(format)) return null;
  if (ask.engine !== services.engine) return null;
  const version = services.http.versions().datasets.get(dataset.id);
  if (!version || services.portal().datasets.get(dataset.id) !== dataset) return null;
  const access = accessOf(ctx, dataset);
  if (access.hiddenFields.size > 0 || access.rowFilter !== null) return null;
  if (!isDeepStrictEqual(ask.params, parseParams(ask.schema, {}))) return null;
  const variant = `${isV20(ctx) ? 'v2.0' : 'v2.1'}.${format}`;
  return {
    file: sharedExportPath(services.portal().dir, dataset.id, version.tag, variant),
    dataset,
    extension: format,
    contentType: ask.contentType,
  };
}

/** Sends the shared file when it is there (true), or does nothing (false). */
export async function sendSharedExport(
  ctx: Context,
  services: Services,
  shared: SharedExport,
): Promise<boolean> {
  if (!(await sharedExportReady(shared.file))) return false;
  const version = services.http.versions().datasets.get(shared.dataset.id)!;
  const validators = answerValidators(ctx);
  const sent = await sendFile(ctx, shared.file, {
    contentType: shared.contentType,
    fileName: `${shared.dataset.id}.${shared.extension}`,
    tag: validators?.tag ?? null,
    modified: validators?.modified ?? version.modified,
  });
  if (sent) {
    ctx.set(SHARED_EXPORT_HEADER, 'shared-file');
    markExport(ctx, shared.extension);
  }
  return sent;
}

/**
 * Writes the shared file in the background from `prepare()` (the same export, unbound to the
 * request, so a client going away does not stop it); a failure is logged, never thrown.
 */
export function startSharedExport(
  services: Services,
  shared: SharedExport,
  prepare: (signal: AbortSignal) => Promise<PreparedExport>,
): void {
  const started = Date.now();
  const log = services.log;
  writeSharedExport(shared.file, async () => (await prepare(new AbortController().signal)).write()).then(
    (outcome) => {
      if (outcome === 'written')
        log.info(`shared export written: ${shared.file} in ${Date.now() - started} ms`);
      // Once per portal folder and process: its later exports are computed without trying.
      else if (outcome === 'unwritable')
        log.warn(
          `shared exports off for ${path.dirname(path.dirname(shared.file))}: the folder cannot be written`,
        );
    },
    (error: unknown) => log.warn(`shared export ${shared.file} not written: ${String(error)}`),
  );
}
