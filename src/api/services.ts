// What every route handler may use: the engine, the current portal, the log.
import type { Context } from 'koa';
import type { Engine } from '../engine/engine.js';
import type { Dataset, Portal } from '../catalog/portal.js';
import type { QuerySource } from '../catalog/source.js';
import { notFound } from './errors.js';

export interface Services {
  readonly engine: Engine;
  /** The portal as last loaded (a reload swaps it whole). */
  portal(): Portal;
  /** The catalog as a queryable table of datasets, rebuilt with the portal. */
  catalog(): QuerySource;
  readonly log: (line: string) => void;
}

/** The dataset named in the path, or 404 NotFoundResource. */
export function requireDataset(services: Services, id: string): Dataset {
  const dataset = services.portal().datasets.get(id);
  if (!dataset) throw notFound('dataset', id);
  return dataset;
}

/**
 * The request's abort signal: fired when the client goes away before the response is finished,
 * so that its DuckDB query is interrupted rather than left running.
 */
export function signalOf(ctx: Context): AbortSignal {
  const state = ctx.state as { abort?: AbortController };
  if (!state.abort) {
    const controller = new AbortController();
    ctx.res.once('close', () => {
      if (!ctx.res.writableFinished) controller.abort();
    });
    state.abort = controller;
  }
  return state.abort.signal;
}

/** Absolute base of the v2.1 API for links, from the request's own host. */
export function apiBase(ctx: Context): string {
  return `${ctx.protocol}://${ctx.host}/api/explore/v2.1`;
}
