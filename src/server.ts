// The server's composition root: loads the portals, opens the locked engine, defines one view per
// dataset, and gives the HTTP listeners that `duckportal serve` (src/cli/serve-command.ts) listens with.
import http from 'node:http';
import path from 'node:path';
import type { Engine } from './engine/engine.js';
import {
  attachedEngines,
  engineOf,
  enginesOf,
  engineSettings,
  openLocalEngine,
  prepareLocalEngine,
  type AttachedEngines,
  type EngineSettings,
  type LocalEngine,
} from './server/engines.js';
import type { Portal } from './catalog/portal.js';
import { createApp, UNKNOWN_HOST_LABEL, unknownHostApp } from './server/app.js';
import { answerClientError, MAX_HEADER_BYTES } from './api/request-guards.js';
import type { Guard, Services, SharedExportOptions } from './http/services.js';
import { KeyStore } from './auth/keys.js';
import { ExportSlots, QuotaCounter, type CallCounter, type SlotCounter } from './auth/quota.js';
import { QuotaStore } from './auth/quota-store.js';
import { distinctSecrets } from './auth/portal-secret.js';
import { Sessions } from './auth/sessions.js';
import { SignInLimiter } from './auth/sign-in-limit.js';
import { UserStore } from './auth/users.js';
import { portalSources } from './server/sources.js';
import type { CallLog, CallLogOptions } from './monitoring/call-log.js';
import { OpenDatasets } from './server/dataset-views.js';
import { servePortal } from './server/portal-loading.js';
import { ProcessFolder } from './server/process-folder.js';
import { oneAfterAnother, publishing, reloadServers, type PublishingOptions } from './server/publishing.js';
import { entityTagKey, portalVersions } from './http/etag.js';
import { CachePartition, ResponseCache } from './http/response-cache.js';
import { paceEarlyRetries } from './http/retry-pacing.js';
import { frontListener, type HostedPortal } from './http/hosts.js';
import bytes from 'bytes';
import { Metrics, PortalMetrics } from './http/metrics.js';
import { operationsApp } from './api/operations.js';
import { createLogger, type Logger } from './log.js';
import { DEFAULT_CACHE_SIZE, DEFAULT_MAX_AGE } from './server/defaults.js';

export interface ServerOptions extends SharedExportOptions, PublishingOptions, Partial<EngineSettings> {
  /** The portal folders to serve; with several, each request goes to the one its Host names. */
  readonly portalDirs: readonly string[];
  /** Seconds anonymous answers may be reused by caches (Cache-Control max-age). */
  readonly maxAge?: number;
  /** Bytes of JSON answers kept by the response cache (all portals together); 0 keeps none. */
  readonly cacheBytes?: number;
  /** The log (a JSON logger on stdout unless given). */ readonly log?: Logger;
  /** Serve /livez, /readyz and /metrics on a listener of their own (`operations`), not the API's. */
  readonly separateOperations?: boolean;
  /** Take the client's address, scheme and host from X-Forwarded-* (`--trust-proxy`). */
  readonly trustProxy?: boolean;
  /** Where the quota counters are kept when shared by replicas (`--quota-store`); else in this process. */
  readonly quotaStore?: QuotaStore;
  /** Datasets kept open at once per portal (`--max-open-datasets`). */ readonly maxOpenDatasets?: number;
  /** Days of API calls the monitoring dataset keeps (`--monitoring-days`); 0 keeps none. */
  readonly monitoringDays?: number;
  /** How the calls are batched (src/monitoring/call-log.ts's defaults unless given). */
  readonly monitoringBatch?: Partial<Omit<CallLogOptions, 'days'>>;
}

/** A running server: its portals, and a way to reload them or stop. */
export interface PortalServer {
  /** The services of each portal, in the order of `portalDirs`. */
  readonly portals: readonly Services[];
  /** The services of the first portal (the only one, on a single-portal server). */
  readonly services: Services;
  /** Every engine the server holds now: DuckDB's, and each portal's ClickHouse servers'. */
  engines(): readonly Engine[];
  readonly callback: http.RequestListener;
  /** /livez, /readyz and /metrics alone, for a listener of their own. */
  readonly operations: http.RequestListener;
  /** From now on /readyz answers 503 (the server is draining). */
  drain(): void;
  /** Writes the API calls kept but not yet written (the monitoring dataset's). */
  flush(): Promise<void>;
  /** Reads every portal folder again (one reload at a time: a second waits for the first). */
  reload(): Promise<readonly Portal[]>;
  close(): void;
}

/**
 * What the portals of one server share: one local engine (one memory bound, one waiting line),
 * the response cache's bound, the metrics (of every engine: `engines`).
 */
interface Shared {
  /** The local engine (DuckDB), which also encodes the Parquet exports of attached datasets. */
  readonly local: LocalEngine;
  readonly engines: () => readonly Engine[];
  readonly responses: ResponseCache;
  readonly metrics: Metrics;
  readonly log: Logger;
}

/** One portal of the server: its services, its application, its reload. */
interface OpenPortal {
  readonly services: Services;
  /** Its API calls kept for the monitoring dataset, or null. */
  readonly calls: CallLog | null;
  readonly hosted: HostedPortal;
  /** Its engines of attached servers. */
  attached(): AttachedEngines;
  reload(): Promise<Portal>;
}

/** Opens everything the portals need to answer requests, without listening. */
export async function openServer(options: ServerOptions): Promise<PortalServer> {
  const portalDirs = options.portalDirs.map((dir) => path.resolve(dir));
  const secrets = distinctSecrets(portalDirs);
  const log = options.log ?? createLogger();
  await prepareLocalEngine();
  const folders: ProcessFolder[] = [];
  for (const dir of portalDirs) folders.push(await ProcessFolder.open(dir));
  const local = await openLocalEngine(portalDirs, folders, engineSettings(options));
  const { engine } = local;
  const portals: OpenPortal[] = [];
  const engines = (): Engine[] => [engine, ...portals.flatMap((p) => enginesOf(p.attached()))];
  const shared: Shared = {
    local,
    engines,
    responses: new ResponseCache(options.cacheBytes ?? bytes.parse(DEFAULT_CACHE_SIZE)!),
    metrics: new Metrics(engines),
    log,
  };
  options.quotaStore?.register(shared.metrics.registry);
  const reload = oneAfterAnother(async (): Promise<readonly Portal[]> => {
    const loaded: Portal[] = [];
    for (const portal of portals) loaded.push(await portal.reload());
    return loaded;
  });
  // Alone, a portal's views keep their dataset ids as names; beside others, each has its prefix.
  const several = portalDirs.length > 1;
  for (const [i, dir] of portalDirs.entries()) {
    const own = { dir, folder: folders[i]!, secret: secrets[i]! };
    portals.push(await openPortal(shared, own, several ? `${i}/` : '', options, reload));
  }
  let draining = false;
  const ready = (): boolean => !draining;
  const handleOperations = operationsApp(shared.metrics, ready, log).callback();
  const operations: http.RequestListener = (request, response) => void handleOperations(request, response);
  const handleUnknown = unknownHostApp(log, new PortalMetrics(UNKNOWN_HOST_LABEL, shared.metrics)).callback();
  return {
    portals: portals.map((p) => p.services),
    services: portals[0]!.services,
    engines,
    callback: paceEarlyRetries(
      frontListener(
        portals.map((p) => p.hosted),
        options.separateOperations ? null : operations,
        (request, response) => void handleUnknown(request, response),
      ),
    ),
    operations,
    drain: () => {
      draining = true;
    },
    reload,
    flush: async () => {
      for (const portal of portals) await portal.calls?.flush();
    },
    close: () => {
      for (const portal of portals) portal.calls?.stop();
      engine.close();
      for (const folder of folders) folder.remove();
    },
  };
}

/** One portal over the shared engine: its views named `viewPrefix` + dataset id. */
async function openPortal(
  { local, responses: cache, metrics: allMetrics, log }: Shared,
  { dir: portalDir, folder, secret }: { dir: string; folder: ProcessFolder; secret: Buffer },
  viewPrefix: string,
  options: ServerOptions,
  reload: () => Promise<unknown>,
): Promise<OpenPortal> {
  const { engine } = local;
  const open = new OpenDatasets(engine, folder, log, options.maxOpenDatasets);
  let served = await servePortal(local, open, portalDir, viewPrefix, null, log);
  let { portal, catalog } = served;
  const openAttached = (): Promise<AttachedEngines> =>
    attachedEngines(portalDir, log, local, engineSettings(options));
  let attached = await openAttached();
  const { domain, aliases } = portal.settings;
  const store = options.quotaStore ?? null;
  let limits = guardLimits(portal, store, secret);
  const guard: Guard = {
    keys: new KeyStore(portalDir),
    users: new UserStore(portalDir),
    sessions: new Sessions(secret, domain),
    signIns: new SignInLimiter(),
    secret,
    quotas: () => limits.quotas,
    exportSlots: () => limits.exportSlots,
  };
  let versions = await portalVersions(portal);
  const label = path.basename(portalDir);
  const responses = new CachePartition(cache, viewPrefix);
  const http = {
    maxAge: options.maxAge ?? DEFAULT_MAX_AGE,
    tagKey: entityTagKey(secret, domain),
    versions: () => versions,
    responses,
    sharedExports: options.sharedExports ?? true,
  };
  const metrics = allMetrics.portal(label, () => portal);
  const others = await portalSources(local, portal, viewPrefix, options, log);
  const { calls } = others;
  const services: Services = {
    engine,
    engineOf: (dataset) => engineOf(dataset, engine, attached),
    portal: () => portal,
    catalog: () => catalog,
    openDataset: (dataset) => open.acquire(portal, dataset),
    openDatasets: open,
    log,
    guard,
    http,
    metrics,
    sources: others.sources,
    ...(calls && { recordCall: (call) => calls.record(call) }),
    publishing: publishing(portalDir, folder, options, () => reloadServers(reload, portalDir, log)),
  };
  const handle = createApp(services, { trustProxy: options.trustProxy ?? false }).callback();
  return {
    services,
    calls,
    attached: () => attached,
    hosted: {
      label,
      hostNames: [domain, ...aliases],
      handle: (request, response) => void handle(request, response),
    },
    reload: async () => {
      served = await servePortal(local, open, portalDir, viewPrefix, served, log);
      ({ portal, catalog } = served);
      for (const remote of enginesOf(attached)) remote.close();
      attached = await openAttached();
      versions = await portalVersions(portal, versions);
      responses.retain(({ scope, version }) => {
        const current = scope === null ? versions.catalog : versions.datasets.get(scope);
        return current?.tag === version;
      });
      if (JSON.stringify(portal.settings.quotas) !== limits.settings)
        limits = guardLimits(portal, store, secret);
      return portal;
    },
  };
}

/**
 * Counters for the quotas of portal.json, in this process or in the shared store (which falls
 * back on those of this process while it does not answer); kept across reloads that leave the
 * quotas unchanged.
 */
function guardLimits(
  portal: Portal,
  store: QuotaStore | null,
  secret: Buffer,
): { settings: string; quotas: CallCounter; exportSlots: SlotCounter } {
  const { quotas } = portal.settings;
  const local = { quotas: new QuotaCounter(quotas), exportSlots: new ExportSlots(quotas.concurrent_exports) };
  return { settings: JSON.stringify(quotas), ...(store ? store.counters(secret, quotas, local) : local) };
}

/**
 * The HTTP server of the portals, with limits against slow or oversized clients: the request line
 * and headers within 64 KiB (the app refuses URLs past 32 KiB with a JSON 414 first, and past 64 KiB
 * the server answers the same JSON 414 itself), headers
 * within 10 s, a whole request within 30 s, idle keep-alive connections closed after 5 s.
 */
export function createHttpServer(portal: PortalServer): http.Server {
  // A request without Host reaches the portals' front, which answers it (src/http/hosts.ts).
  const server = http.createServer(
    { maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false },
    portal.callback,
  );
  server.on('clientError', answerClientError);
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  return server;
}
