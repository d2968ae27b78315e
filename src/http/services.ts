// What every route handler may use: the engine, the current portal, the log.
import type { Context } from 'koa';
import type { Engine } from '../engine/engine.js';
import type { Dataset, Portal } from '../catalog/portal.js';
import type { QuerySource } from '../odsql/source.js';
import { ApiError, notFound } from './errors.js';
import { datasetAccess, type DatasetAccess } from '../auth/access.js';
import { callerState } from './auth-middleware.js';
import { needsOpaqueIds, recordIdKey } from '../auth/record-ids.js';
import type { Identities } from './auth-middleware.js';
import type { CallCounter, SlotCounter } from '../auth/quota.js';
import type { SignInLimiter } from '../auth/sign-in-limit.js';
import { querySource, type SourceView } from '../engine/dataset-source.js';
import type { PortalVersions } from './etag.js';
import type { CachePartition } from './response-cache.js';
import type { PortalMetrics } from './metrics.js';
import type { Logger } from '../log.js';
import type { ApiCall } from '../monitoring/dataset.js';

export interface Services {
  /** The engine of the catalog and of the datasets in Parquet files. */
  readonly engine: Engine;
  /** The engine a dataset's records are queried on: `engine`, or its ClickHouse server's. */
  engineOf(dataset: Dataset): Engine;
  /** The portal as last loaded (a reload swaps it whole). */
  portal(): Portal;
  /** The catalog as a queryable table of datasets, rebuilt with the portal. */
  catalog(): QuerySource;
  /**
   * Opens a dataset's views in the engine unless open (src/server/dataset-views.ts), for one user
   * until the release; absent: every view is defined already (a portal served by hand in a test).
   */
  openDataset?(dataset: Dataset): Promise<() => void>;
  /** How many datasets are open, and have been opened since the start (for /metrics and tests). */
  readonly openDatasets?: { readonly size: number; readonly opened: number };
  /** The server's one log (pino): the access log, start-up, reloads, errors. */
  readonly log: Logger;
  /** API keys, quotas and export slots (src/auth/). */
  readonly guard: Guard;
  /** Entity tags, Cache-Control and the response cache (src/http/http-caching.ts). */
  readonly http: HttpCaching;
  /** The Prometheus metrics, under the portal's label (src/http/metrics.ts). */
  readonly metrics: PortalMetrics;
  /** The sources beside the catalog (src/server/sources.ts); absent: answered as empty. */
  readonly sources?: {
    /** The portal's API calls as a dataset; null when --monitoring-days is 0. */
    readonly monitoring: SourceData | null;
    /** The data network, which the portal belongs to none of: no dataset. */
    readonly dataNetwork: SourceData;
  };
  /** Keeps an API call in the monitoring dataset; absent: calls are not kept. */
  readonly recordCall?: (call: ApiCall) => void;
  /** Publishing from the account page's Datasets tab (src/web/publish-routes.ts); absent: no tab. */
  readonly publishing?: Publishing;
}

/** What the account page's Datasets tab publishes with (docs/web-pages.md, Publishing). */
export interface Publishing {
  /** The portal folder datasets are published into. */
  readonly portalDir: string;
  /** This process's folder for uploads and staged drafts (inside its process folder). */
  readonly draftsDir: string;
  /** The largest upload or download accepted, in bytes (`--max-upload-size`). */
  readonly maxUploadBytes: number;
  /** Whether a URL may name a loopback, private or link-local address (`--allow-private-urls`). */
  readonly allowPrivateUrls: boolean;
  /** Reloads this server's portals and signals this host's other servers of the portal. */
  published(): Promise<void>;
}

/** A source of datasets other than the catalog: its datasets as a portal, and its catalog table. */
export interface SourceData {
  portal(): Portal;
  catalog(): QuerySource;
}

/** Whether whole default exports are kept as files and sent with ranges (on unless `--no-shared-exports`). */
export interface SharedExportOptions {
  readonly sharedExports?: boolean;
}

/** What HTTP caching needs: the data versions of the portal as loaded, the tag key, the settings. */
export interface HttpCaching {
  /** Cache-Control max-age of anonymous answers on a public portal, in seconds. */
  readonly maxAge: number;
  /** The key of entity tags (from the portal's secret, so every replica agrees). */
  readonly tagKey: Buffer;
  /** The versions of the portal's datasets and catalog, rebuilt with the portal. */
  versions(): PortalVersions;
  /** The portal's part of the server's response cache. */
  readonly responses: CachePartition;
  /** Whether whole default exports are kept as files and sent with ranges (src/api/shared-export-response.ts). */
  readonly sharedExports: boolean;
}

/** API keys, users and their sessions (Identities), the secrets and the limits. */
export interface Guard extends Identities {
  /** Sign-in tries per user name and address (the account page). */
  readonly signIns: SignInLimiter;
  /** The portal's secret, which keys the opaque record ids of audiences (src/auth/record-ids.ts). */
  readonly secret: Buffer;
  /** The counters of the quotas in portal.json (new counters when a reload changes them). */
  quotas(): CallCounter;
  exportSlots(): SlotCounter;
}

/** The dataset named in the path, or 404 NotFoundResource. */
export function requireDataset(services: Services, id: string): Dataset {
  const dataset = services.portal().datasets.get(id);
  if (!dataset) throw notFound('dataset', id);
  return dataset;
}

/** What the request's caller may see of `dataset`. */
export function accessOf(ctx: Context, dataset: Dataset): DatasetAccess {
  return datasetAccess(dataset, callerState(ctx).owner);
}

const sourcesByDataset = new WeakMap<Dataset, Map<string, QuerySource>>();

/**
 * The query source of `dataset` through `view`, one object per dataset as loaded and view (a
 * reload makes new datasets), so that its compiled queries are found again (src/odsql/compile-cache.ts).
 */
export function servedSource(dataset: Dataset, view: SourceView): QuerySource {
  const key = JSON.stringify([[...view.hiddenFields].sort(), view.rowFilter, view.recordIdKey ?? null]);
  let sources = sourcesByDataset.get(dataset);
  if (!sources) sourcesByDataset.set(dataset, (sources = new Map<string, QuerySource>()));
  let source = sources.get(key);
  if (!source) sources.set(key, (source = querySource(dataset, view)));
  return source;
}

/**
 * The dataset named in the path and the query source its caller sees (hidden fields left out,
 * row filter applied), admitted to the waiting line of the engine it is queried on: 404 when
 * unknown, 403 ForbiddenAccess when listed but not visible, 503 ServerBusy past that line's bound.
 */
export function requireDataSource(
  services: Services,
  ctx: Context,
  id: string,
): { dataset: Dataset; source: QuerySource; engine: Engine } {
  const dataset = requireDataset(services, id);
  const access = accessOf(ctx, dataset);
  if (!access.dataVisible) {
    throw new ApiError(403, 'ForbiddenAccess', `You do not have access to the data of dataset ${id}.`);
  }
  const idKey = needsOpaqueIds(dataset, access) ? recordIdKey(services.guard.secret, dataset, access) : null;
  const engine = services.engineOf(dataset);
  // Admitted at the door to DuckDB's line (src/api/admission.ts); its dataset's engine may be
  // another (a ClickHouse server's), whose line admits it too, before any parsing.
  engine.admit();
  return { dataset, source: servedSource(dataset, { ...access, recordIdKey: idKey }), engine };
}

/** Opens `dataset`'s views for the rest of the request (released when its response closes). */
export async function openForRequest(services: Services, ctx: Context, dataset: Dataset): Promise<void> {
  if (!services.openDataset) return;
  const release = await services.openDataset(dataset);
  whenClosed(ctx, release);
}

/**
 * The request's abort signal: fired when the client goes away before the response is finished,
 * so that its DuckDB query is interrupted rather than left running.
 */
export function signalOf(ctx: Context): AbortSignal {
  const state = ctx.state as { abort?: AbortController };
  if (!state.abort) {
    const controller = new AbortController();
    whenClosed(ctx, () => {
      if (!ctx.res.writableFinished) controller.abort();
    });
    state.abort = controller;
  }
  return state.abort.signal;
}

/**
 * Runs `done` when the response closes (at once if it has), through one listener per response for
 * every caller: a streamed export's response already carries one per stage of its pipeline, and
 * Node warns of a leak past ten.
 */
export function whenClosed(ctx: Context, done: () => void): void {
  if (ctx.res.closed) return done();
  const state = ctx.state as { closing?: (() => void)[] };
  if (!state.closing) {
    const closing: (() => void)[] = [];
    ctx.res.once('close', () => closing.forEach((run) => run()));
    state.closing = closing;
  }
  state.closing.push(done);
}

/**
 * Absolute base of the request's API generation for links, from the request's own host and scheme
 * (the forwarded ones behind --trust-proxy): v2.1, or the v2.0 path a v2.0 router marked.
 */
export function apiBase(ctx: Context): string {
  const prefix = (ctx.state as LinkState).apiPrefix ?? '/api/explore/v2.1';
  return `${ctx.protocol}://${ctx.host}${prefix}`;
}

/** What links are written from: the generation's path (v2.0's router) and the source (src/api/sources.ts). */
interface LinkState {
  apiPrefix?: string;
  source?: { name: string; path: string };
}

/**
 * Marks a request that a source other than the catalog (`monitoring`, `opendatasoft`) hands to
 * the catalog's handlers, so that its links stay under the source's path the client sent.
 */
export function markSource(ctx: Context, name: string): void {
  (ctx.state as LinkState).source = { name, path: ctx.path };
}

/** Absolute base of the source the request queries: `<api>/catalog`, or the source it came by. */
export const sourceBase = (ctx: Context): string =>
  `${apiBase(ctx)}/${(ctx.state as LinkState).source?.name ?? 'catalog'}`;

/** The path as the client sent it (after slashes are folded), before a source's routing. */
export const sentPath = (ctx: Context): string => (ctx.state as LinkState).source?.path ?? ctx.path;
