// Fuzz test: 10,080 generated ODSQL inputs per run (grammar and mutations, test/api/fuzz-requests.ts)
// over every clause and endpoint family, sent to one sample server, 8 at a time. None may answer
// 5xx, take over 5 s, answer an error outside its API generation's shape, or show SQL, a file
// path, DuckDB's text or a stack. Each run draws a new seed; a failure prints fast-check's
// `{ seed, path }`: replay it with FUZZ_SEED=<seed> FUZZ_PATH=<path> (fc.assert's options).
import http from 'node:http';
import { expect } from 'chai';
import fc from 'fast-check';
import { useSampleSuite } from '../helpers/sample-portal.js';
import type { TestServer } from '../helpers/server.js';
import { compileQuery } from '../../src/odsql/index.js';
import { SOURCE } from '../odsql/fixture.js';
import { requests, urlOf, type Request } from './fuzz-requests.js';

const CONCURRENCY = 8;
const RUNS = 1_260;
const DEADLINE_MS = 5_000;

/** What no body may show, unless the input itself holds it (error messages quote the input). */
const LEAKS: readonly [string, RegExp][] = [
  ['SQL text', /\bSELECT\b|\bFROM\s+\\?"|read_parquet|read_csv|\bCOPY\b.*\bTO\b/],
  ['a file path', /\/tmp\/|data\/portal|\/[\w./-]*\.parquet\b|\/work\//],
  [
    'DuckDB error text',
    /\b(Binder|Parser|Conversion|Catalog|Invalid Input|INTERNAL|Out of Range|Not implemented|IO) Error\b|duckdb/i,
  ],
  ['a stack', /(\n|\\n)\s+at [\w.<]/],
];

const isV1 = (path: string): boolean => /^\/api\/(records|datasets)\/1\.0\//.test(path);

/** The problem with one answer, or null when it holds every property. */
function problemOf(request: Request, status: number, body: string, ms: number): string | null {
  if (status >= 500) return `answered ${status}`;
  if (ms > DEADLINE_MS) return `answered in ${ms} ms`;
  const input = decodeURIComponent(urlOf(request).replaceAll('+', ' '));
  for (const [what, pattern] of LEAKS) {
    const found = pattern.exec(body)?.[0];
    if (found !== undefined && !input.includes(found)) return `shows ${what} (${found})`;
  }
  if (status < 400) return null;
  let keys: string[];
  try {
    keys = Object.keys(JSON.parse(body) as object);
  } catch {
    return 'error body is not JSON';
  }
  const shape = isV1(request.path) ? ['error', 'errorcode'] : ['error_code', 'message'];
  return shape.every((key) => keys.includes(key)) ? null : `error body without ${shape.join(', ')}`;
}

/**
 * Eight clients, each from its own loopback address (127.0.0.2-9): the anonymous quota of 10,000
 * calls a day per address would otherwise answer 429 before the run ends.
 */
const CLIENTS = Array.from(
  { length: CONCURRENCY },
  (_, i) => new http.Agent({ keepAlive: true, localAddress: `127.0.0.${i + 2}` }),
);

/** GETs `url` through `agent`: status and body text, or status 0 when `signal` fires first. */
function get(url: string, agent: http.Agent, signal: AbortSignal): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, signal }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
      );
      response.on('error', reject);
    });
    request.on('error', (error) => (signal.aborted ? resolve({ status: 0, body: '' }) : reject(error)));
  });
}

/** Sends one request as client `client`, failing with its URL on a broken property or after the deadline. */
async function check(server: TestServer, request: Request, client: number): Promise<number> {
  const started = performance.now();
  const signal = AbortSignal.timeout(DEADLINE_MS + 1);
  const { status, body } = await get(server.base + urlOf(request), CLIENTS[client]!, signal);
  const ms = Math.round(performance.now() - started);
  const problem = status ? problemOf(request, status, body, ms) : `no answer within ${DEADLINE_MS} ms`;
  if (problem) throw new Error(`${urlOf(request)}\n  ${problem}: ${body.slice(0, 500)}`);
  return status;
}

/** fast-check's replay options from the environment, else a fresh seed. */
function replay(): { seed?: number; path?: string } {
  const seed = process.env.FUZZ_SEED;
  const path = process.env.FUZZ_PATH;
  return { ...(seed && { seed: Number(seed) }), ...(path && { path }) };
}

describe('fuzz: generated ODSQL over every endpoint family (sample portal)', function () {
  this.timeout(240_000);
  const suite = useSampleSuite();
  after(() => CLIENTS.forEach((agent) => agent.destroy()));

  it(`${RUNS * CONCURRENCY} inputs: no 5xx, each answer within 5 s, clean error bodies, no SQL, path or stack`, async () => {
    const statuses: number[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.array(requests, { minLength: CONCURRENCY, maxLength: CONCURRENCY }),
        async (batch) => {
          statuses.push(
            ...(await Promise.all(batch.map((request, client) => check(suite.server, request, client)))),
          );
        },
      ),
      { numRuns: RUNS, ...replay() },
    );
    expect(statuses.length).to.be.at.least(10_000);
    // The generator reaches the query engine, not only the parser: a good share of inputs run.
    expect(statuses.filter((s) => s === 200).length).to.be.above(statuses.length / 10);
  });
});

describe('what the fuzz found', () => {
  const suite = useSampleSuite();

  it('a number IN a list of texts compares texts (was a 500: DuckDB could not cast the text)', async () => {
    for (const path of [
      'catalog/datasets/airports/records',
      'catalog/datasets',
      'catalog/datasets/airports',
    ]) {
      const select = encodeURIComponent("1 in ('a', '1') as one, 9223372036854775807 in (2, 'b') as two");
      const { status, body } = await suite.server.json(`/api/explore/v2.1/${path}?select=${select}&limit=1`);
      expect(status, path).to.equal(200);
      expect(body.results?.[0] ?? body).to.deep.equal({ one: true, two: false });
    }
  });

  it('a test of an aggregation (IS NULL, LIKE, IN) in order_by without group_by is a 400 (was a 500)', async () => {
    for (const order of [
      'avg(mag) is null',
      "max(place) like 'a%'",
      'avg(mag) in (1, 2)',
      'avg(mag) in [1..2]',
    ]) {
      for (const path of ['records', 'exports/csv']) {
        const url = `/api/explore/v2.1/catalog/datasets/earthquakes/${path}?order_by=${encodeURIComponent(order)}&limit=1`;
        const response = await suite.server.get(url);
        expect(response.status, `${path}: ${order}`).to.equal(400);
        expect(((await response.json()) as { message: string }).message).to.include('needs group_by');
      }
    }
  });

  it('a multivalued field as the pattern of LIKE is a 400 naming it (was a 500, seed -551769743)', async () => {
    for (const [path, where] of [
      ['catalog/datasets', 'theme like features'],
      ['catalog/datasets/airports', "'a' like features"],
      ['catalog/datasets/movies/records', 'title like major_genre'],
    ]) {
      const url = `/api/explore/v2.1/${path}?select=${encodeURIComponent(`(${where}) as t`)}&limit=1`;
      const { status, body } = await suite.server.json(url);
      expect(status, url).to.equal(400);
      expect(body.message).to.include('LIKE expects one text as its pattern, got a multivalued field');
    }
    const operand = await suite.server.json(
      `/api/explore/v2.1/catalog/datasets?where=${encodeURIComponent("theme like 'Transport%'")}&select=dataset_id`,
    );
    expect(operand.status, 'a multivalued operand stays allowed').to.equal(200);
  });

  it('a fraction is a double: 98 + 2.2597004920661993 does not overflow a DECIMAL (was a 500)', async () => {
    const select = encodeURIComponent('ifnull(98, 0) + 2.2597004920661993 as v');
    const { status, body } = await suite.server.json(
      `/api/explore/v2.1/catalog/datasets/airports?select=${select}`,
    );
    expect(status).to.equal(200);
    expect(body.v).to.be.closeTo(100.2597004920662, 1e-9);
  });

  it('a search without index splits the text of its fields once (one Unicode regexp to compile, not one per field)', () => {
    const { sql } = compileQuery(SOURCE, { where: ["search(*, 'alpha beta')", "suggest(name, 'ga')"] });
    expect(sql.match(/regexp_split_to_array/g)).to.have.length(2);
  });

  it('now() with parameters in a zone with summer time reads the wall clock once through ICU (was 80 KB of SQL)', () => {
    const { sql } = compileQuery(SOURCE, {
      select: 'n',
      where: ['d < now(years=-1, hour=3)'],
      timezone: 'Europe/Paris',
    });
    expect(sql.length).to.be.below(2_000);
  });
});
