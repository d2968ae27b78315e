// The Prometheus metrics of the server (prom-client, a registry of its own): requests by portal and
// route template, export bytes, each engine's load, quota refusals, datasets, failed source
// refreshes (read from the state file the refresh command writes), and the process's own.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Engine } from '../engine/engine.js';
import type { Portal } from '../catalog/portal.js';
import { readRefreshState } from '../catalog/refresh-state.js';

/** What a refused call ran out of: a daily quota ('ip', 'key', 'portal') or its export slots. */
export type RefusalKind = 'ip' | 'key' | 'portal' | 'exports';

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'portal' | 'route' | 'method' | 'status'>;
  private readonly durations: Histogram<'portal' | 'route' | 'method' | 'status_class'>;
  private readonly exportBytes: Counter<'format'>;
  private readonly refusals: Counter<'kind'>;
  private readonly cacheHits: Counter;
  private readonly cacheMisses: Counter;
  /** The portals served, by their label. */
  private readonly portals = new Map<string, () => Portal>();

  /** The metrics of a server holding `engines` (read at each scrape: a reload changes them). */
  constructor(engines: () => Iterable<Engine>) {
    const portals = this.portals;
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'duckportal_http_requests_total',
      help: 'HTTP requests answered, by route template',
      labelNames: ['portal', 'route', 'method', 'status'],
      registers,
    });
    this.durations = new Histogram({
      name: 'duckportal_http_request_duration_seconds',
      help: 'Time to answer an HTTP request (to the end of its body), by route template',
      labelNames: ['portal', 'route', 'method', 'status_class'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.exportBytes = new Counter({
      name: 'duckportal_export_bytes_total',
      help: 'Bytes sent for exports (headers and gzip included), by format',
      labelNames: ['format'],
      registers,
    });
    this.refusals = new Counter({
      name: 'duckportal_quota_rejections_total',
      help: 'Calls refused with a 429, by the quota spent (ip, key, portal, exports)',
      labelNames: ['kind'],
      registers,
    });
    this.cacheHits = new Counter({
      name: 'duckportal_cache_hits_total',
      help: 'API answers taken from the response cache (or from the same computation in flight)',
      registers,
    });
    this.cacheMisses = new Counter({
      name: 'duckportal_cache_misses_total',
      help: 'Cacheable API answers computed anew',
      registers,
    });
    engineGauge(
      this.registry,
      'duckportal_queries_in_flight',
      'Statements running now on an engine (queries, exports, queries being stopped)',
      engines,
      (engine) => engine.queriesInFlight,
    );
    engineGauge(
      this.registry,
      'duckportal_queue_length',
      "Queries waiting for a place of an engine (a pooled DuckDB connection, a ClickHouse server's request)",
      engines,
      (engine) => engine.queueLength,
    );
    engineGauge(
      this.registry,
      'duckportal_memory_reserved_bytes',
      "Bytes of the process's memory budget outside an engine's limit held now (holistic aggregations)",
      engines,
      (engine) => engine.reservedMemoryBytes,
    );
    engineGauge(
      this.registry,
      'duckportal_hot_datasets_bytes',
      "Bytes of an engine's memory held by its copies of datasets asked often",
      engines,
      (engine) => engine.hotBytes ?? 0,
    );
    refreshFailures(this.registry, portals);
    new Gauge({
      name: 'duckportal_datasets',
      help: 'Datasets served',
      labelNames: ['portal'],
      registers,
      collect() {
        for (const [label, portal] of portals) this.set({ portal: label }, portal().datasets.size);
      },
    });
  }

  /** The metrics of one portal, whose label set names it `label` (never a user input). */
  portal(label: string, portal: () => Portal): PortalMetrics {
    this.portals.set(label, portal);
    return new PortalMetrics(label, this);
  }

  /** Counts one answered request of a portal under its route template. */
  answered(portal: string, route: string, method: string, status: number, seconds: number): void {
    this.requests.inc({ portal, route, method, status: String(status) });
    this.durations.observe({ portal, route, method, status_class: `${Math.floor(status / 100)}xx` }, seconds);
  }

  exported(format: string, bytes: number): void {
    this.exportBytes.inc({ format }, bytes);
  }

  cacheLookup(outcome: 'hit' | 'miss'): void {
    (outcome === 'hit' ? this.cacheHits : this.cacheMisses).inc();
  }

  refused(kind: RefusalKind): void {
    this.refusals.inc({ kind });
  }
}

/**
 * A gauge of every engine's load, labelled by its kind and server (two portals attached to one
 * ClickHouse server add up); an engine gone with a reload leaves no series behind.
 */
function engineGauge(
  registry: Registry,
  name: string,
  help: string,
  engines: () => Iterable<Engine>,
  load: (engine: Engine) => number,
): void {
  new Gauge({
    name,
    help,
    labelNames: ['engine', 'server'],
    registers: [registry],
    collect() {
      this.reset();
      for (const engine of engines()) this.inc({ ...engine.labels }, load(engine));
    },
  });
}

/**
 * The failed checks of each portal's sources, from the state file `duckportal refresh` writes (a
 * process of its own): read at each scrape. No dataset label: /metrics may be public, and a
 * restricted dataset's id is not (the refresh's log line names it).
 */
function refreshFailures(registry: Registry, portals: ReadonlyMap<string, () => Portal>): void {
  new Counter({
    name: 'duckportal_refresh_failures_total',
    help: "Checks of the datasets' sources by `duckportal refresh` that failed, the version served kept (from <portal>/refresh-state.json)",
    labelNames: ['portal'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const [label, portal] of portals) {
        const states = [...(await readRefreshState(portal().dir)).values()];
        this.inc(
          { portal: label },
          states.reduce((sum, state) => sum + state.failures_total, 0),
        );
      }
    },
  });
}

/** What a portal's requests count in the server's metrics, under the portal's label. */
export class PortalMetrics {
  constructor(
    readonly portalLabel: string,
    private readonly all: Metrics,
  ) {}

  /** The registry of the whole server (every portal's metrics). */
  get registry(): Registry {
    return this.all.registry;
  }

  /** Counts one answered request under its route template. */
  answered(route: string, method: string, status: number, seconds: number): void {
    this.all.answered(this.portalLabel, route, method, status, seconds);
  }

  exported(format: string, bytes: number): void {
    this.all.exported(format, bytes);
  }

  cacheLookup(outcome: 'hit' | 'miss'): void {
    this.all.cacheLookup(outcome);
  }

  refused(kind: RefusalKind): void {
    this.all.refused(kind);
  }
}
