// /livez, /readyz and /metrics: the exposition parses, counts exactly the requests sent under
// their route templates, and names no dataset, key or user in a label; --metrics-port moves them.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { SAMPLE_PORTAL, startSampleServer } from '../helpers/sample-portal.js';
import type { TestServer } from '../helpers/server.js';
import { freePort } from '../helpers/ports.js';

const CLI = path.resolve('bin/duckportal.cjs');

/** One sample of the exposition: metric name, labels, value. */
interface Sample {
  readonly name: string;
  readonly labels: ReadonlyMap<string, string>;
  readonly value: number;
}

// Values as Go's ParseFloat reads them, which Prometheus uses (NaN and Inf in any case).
const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.eE+-]+|[+-]?(?:nan|inf))$/i;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/y;

/** Parses the Prometheus text format strictly: every line a comment or a well-formed sample. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const match = SAMPLE_LINE.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels = new Map<string, string>();
    const body = match[2] ?? '';
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < body.length) {
      const label = LABEL.exec(body);
      if (!label) throw new Error(`bad labels in: ${line}`);
      labels.set(label[1]!, label[2]!);
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape(server: TestServer): Promise<Sample[]> {
  const response = await server.get('/metrics');
  expect(response.status).to.equal(200);
  expect(response.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await response.text());
}

function requestCount(samples: Sample[], route: string, status: string): number {
  return samples
    .filter((s) => s.name === 'duckportal_http_requests_total')
    .filter((s) => s.labels.get('route') === route && s.labels.get('status') === status)
    .reduce((sum, s) => sum + s.value, 0);
}

describe('operations endpoints', () => {
  let server: TestServer;
  before(async () => {
    server = await startSampleServer();
  });
  after(() => server.close());

  it('/livez and /readyz answer 200, and /readyz 503 once the server drains', async () => {
    const other = await startSampleServer();
    try {
      expect((await other.json('/livez')).status).to.equal(200);
      expect(await other.json('/readyz')).to.deep.equal({ status: 200, body: { status: 'ready' } });
      other.portal.drain();
      expect(await other.json('/readyz')).to.deep.equal({ status: 503, body: { status: 'draining' } });
      expect((await other.json('/livez')).status).to.equal(200);
    } finally {
      await other.close();
    }
  });

  it('counts exactly the requests sent, under route templates and never raw paths', async () => {
    const before = await scrape(server);
    const records = '/api/explore/v2.1/catalog/datasets/:dataset_id/records';
    for (const id of ['airports', 'flights', 'movies']) {
      expect((await server.get(`/api/explore/v2.1/catalog/datasets/${id}/records?limit=1`)).status).to.equal(
        200,
      );
    }
    expect((await server.get('/api/explore/v2.1/catalog/datasets/nope-123/records')).status).to.equal(404);
    expect((await server.get('/no/such/path/secret-user')).status).to.equal(404);
    await server.get('/metrics'); // the scrapes themselves are not counted
    const after = await scrape(server);
    expect(requestCount(after, records, '200') - requestCount(before, records, '200')).to.equal(3);
    expect(requestCount(after, records, '404') - requestCount(before, records, '404')).to.equal(1);
    expect(requestCount(after, 'unmatched', '404') - requestCount(before, 'unmatched', '404')).to.equal(1);
    const routes = new Set(after.flatMap((s) => s.labels.get('route') ?? []));
    expect(routes).to.not.include('/metrics');
    const values = after.flatMap((s) => [...s.labels.values()]);
    for (const id of ['airports', 'flights', 'movies', 'nope-123', 'secret-user']) {
      expect(
        values.filter((v) => v.includes(id)),
        id,
      ).to.deep.equal([]);
    }
    const duration = after.find(
      (s) =>
        s.name === 'duckportal_http_request_duration_seconds_count' &&
        s.labels.get('route') === records &&
        s.labels.get('status_class') === '2xx',
    );
    expect(duration?.value).to.be.at.least(3);
  });

  it('reports datasets, engine load, export bytes, response cache lookups and the process', async () => {
    const before = await scrape(server);
    const csv = await server.get('/api/explore/v2.1/catalog/datasets/airports/exports/csv');
    const size = (await csv.arrayBuffer()).byteLength;
    const after = await scrape(server);
    const value = (samples: Sample[], name: string, label?: [string, string]): number | undefined =>
      samples.find((s) => s.name === name && (!label || s.labels.get(label[0]) === label[1]))?.value;
    expect(value(after, 'duckportal_datasets', ['portal', 'portal'])).to.equal(5);
    const bytes = (samples: Sample[]): number =>
      value(samples, 'duckportal_export_bytes_total', ['format', 'csv']) ?? 0;
    // Counted on the socket: the body and its headers (under 1 KiB).
    expect(bytes(after) - bytes(before)).to.be.within(size, size + 1024);
    expect(value(after, 'duckportal_queries_in_flight', ['engine', 'duckdb'])).to.equal(0);
    expect(value(after, 'duckportal_queue_length', ['engine', 'duckdb'])).to.equal(0);
    expect(value(after, 'process_resident_memory_bytes')).to.be.greaterThan(0);
    const lookups = async (): Promise<number[]> => {
      const samples = await scrape(server);
      return ['duckportal_cache_hits_total', 'duckportal_cache_misses_total'].map((name) =>
        value(samples, name)!,
      );
    };
    const [hits, misses] = await lookups();
    for (let i = 0; i < 2; i++) {
      expect(
        (await server.get('/api/explore/v2.1/catalog/datasets/seattle-weather/records?limit=3')).status,
      ).to.equal(200);
    }
    expect(await lookups()).to.deep.equal([hits! + 1, misses! + 1]);
    const names = new Set(after.map((s) => s.name));
    expect(names).to.include('nodejs_eventloop_lag_seconds');
  });

  it('--metrics-port moves the three endpoints to their own listener', async () => {
    const [apiPort, metricsPort] = [await freePort(), await freePort()];
    const child = spawn(
      CLI,
      ['serve', '--portal', SAMPLE_PORTAL, '--port', String(apiPort), '--metrics-port', String(metricsPort)],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    try {
      // stdout is read to its end (the log has a line per request).
      let output = '';
      child.stdout.on('data', (chunk) => (output += String(chunk)));
      const started = (): boolean =>
        output.includes('datasets on http://') && output.includes('/metrics on http://');
      while (!started() && child.exitCode === null) await once(child.stdout, 'data');
      const api = `http://127.0.0.1:${apiPort}`;
      const ops = `http://127.0.0.1:${metricsPort}`;
      expect((await fetch(`${api}/api/explore/v2.1/catalog/datasets`)).status).to.equal(200);
      for (const endpoint of ['/livez', '/readyz', '/metrics']) {
        expect((await fetch(api + endpoint)).status, `API ${endpoint}`).to.equal(404);
        expect((await fetch(ops + endpoint)).status, `metrics ${endpoint}`).to.equal(200);
      }
      const samples = parseExposition(await (await fetch(`${ops}/metrics`)).text());
      expect(requestCount(samples, '/api/explore/v2.1/catalog/datasets', '200')).to.equal(1);
      expect(requestCount(samples, 'unmatched', '404')).to.equal(3);
      expect((await fetch(`${ops}/api/explore/v2.1/catalog/datasets`)).status).to.equal(404);
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    }
  });
});
