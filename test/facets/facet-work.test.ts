// The work of a facets request grows with its number of facets, not with its square: each facet's
// target is analyzed once, the statements' conditions once per set of refinements left out, and
// the keys are counted by a few statements of at most KEYS_PER_STATEMENT keys (counted here with
// the analyzer's counter and a count of the engine's statements, not timed). Its statements run
// under one signal of their own: no AbortSignal gathers a listener per statement.
import { expect } from 'chai';
import { MAX_FACETS } from '../../src/facets/facet-param.js';
import { KEYS_PER_STATEMENT } from '../../src/facets/facet-statements.js';
import { analysesSoFar } from '../../src/odsql/index.js';
import { SAMPLE_PORTAL, useSampleSuite } from '../helpers/sample-portal.js';
import { startServeProcess } from '../helpers/serve-process.js';

const V21 = '/api/explore/v2.1';

/** `facet=range(field,1)&facet=range(field,2)...`: n distinct facets of one field. */
const ranges = (field: string, n: number): string =>
  Array.from({ length: n }, (_, i) => `facet=${encodeURIComponent(`range(${field},${i + 1})`)}`).join('&');

describe('the work of a facets request', function () {
  this.timeout(120_000);
  const suite = useSampleSuite();

  /** Answers `path`, with the analyses, the engine's statements and the process warnings it caused. */
  async function measured(path: string) {
    const engine = suite.server.portal.services.engine;
    const queryJson = engine.queryJson.bind(engine);
    let statements = 0;
    engine.queryJson = (...args) => {
      statements++;
      return queryJson(...args);
    };
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    const before = analysesSoFar();
    try {
      const { status, body } = await suite.server.json(path);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      return { status, body, analyses: analysesSoFar() - before, statements, warnings };
    } finally {
      engine.queryJson = queryJson;
      process.off('warning', onWarning);
    }
  }

  for (const [dataset, field] of [
    ['flights', 'delay'],
    ['movies', 'imdb_votes'],
  ] as const) {
    it(`counts 100 facets of ${dataset} with one analysis per facet and statement, ${KEYS_PER_STATEMENT} keys a statement`, async () => {
      const n = 100;
      const { status, body, analyses, statements, warnings } = await measured(
        `${V21}/catalog/datasets/${dataset}/facets?${ranges(field, n)}`,
      );
      console.log(`      ${dataset}: ${n} facets, ${analyses} analyses, ${statements} statements`);
      expect(status, JSON.stringify(body).slice(0, 300)).to.equal(200);
      expect(body.facets).to.have.length(n);
      expect(statements, 'statements').to.be.at.most(Math.ceil(n / KEYS_PER_STATEMENT) + 1);
      // One analysis per facet's function, one per statement, one to find a table of counts.
      expect(analyses, 'analyses').to.be.at.most(n + statements + 2);
      expect(warnings, 'process warnings').to.deep.equal([]);
    });
  }

  it('counts each facet among 100 others as alone', async () => {
    const among = await suite.server.json(`${V21}/catalog/datasets/flights/facets?${ranges('delay', 100)}`);
    for (const i of [1, 17, 100]) {
      const facet = `facet=${encodeURIComponent(`range(delay,${i})`)}`;
      const alone = await suite.server.json(`${V21}/catalog/datasets/flights/facets?${facet}`);
      expect(among.body.facets[i - 1], `range(delay,${i})`).to.deep.equal(alone.body.facets[0]);
    }
  });

  it('counts a facet asked many times once, and answers it each time', async () => {
    const asked = ['state', 'country', 'range(longitude,5)', 'facet(name="state", sort="alphanum")'];
    const facets = Array.from({ length: MAX_FACETS }, (_, i) => `facet=${encodeURIComponent(asked[i % 4]!)}`);
    const { status, body, statements } = await measured(
      `${V21}/catalog/datasets/airports/facets?${facets.join('&')}`,
    );
    expect(status, JSON.stringify(body).slice(0, 300)).to.equal(200);
    // Four keys in one statement: the two `state` facets are capped apart (by count, by text).
    expect(statements, 'statements').to.equal(1);
    for (const [i, facet] of asked.entries()) {
      const alone = await suite.server.json(
        `${V21}/catalog/datasets/airports/facets?facet=${encodeURIComponent(facet)}`,
      );
      for (let at = i; at < MAX_FACETS; at += 4)
        expect(body.facets[at], `${facet} at ${at}`).to.deep.equal(alone.body.facets[0]);
    }
  });

  it(`runs a request's statements two at a time: 100 facets of a small dataset fit in 128 MB of DuckDB memory`, async () => {
    // Side by side, the 7 statements of 16 keys took about 300 MB: a 503 QueryOutOfMemory.
    // Two threads, as on the machines measured: a statement's memory grows with DuckDB's threads.
    const flags = ['--memory-limit', '128MB', '--threads', '2', '--cache-size', '0'];
    const serve = await startServeProcess(SAMPLE_PORTAL, flags);
    try {
      for (const field of ['longitude', 'latitude']) {
        const response = await fetch(
          `${serve.base}${V21}/catalog/datasets/airports/facets?${ranges(field, MAX_FACETS)}`,
        );
        const body = (await response.json()) as { facets?: unknown[] };
        expect(response.status, JSON.stringify(body).slice(0, 300)).to.equal(200);
        expect(body.facets).to.have.length(MAX_FACETS);
      }
    } finally {
      await serve.kill();
    }
  });

  it('counts v1 facets the same way', async () => {
    const n = 100;
    const facets = ranges('delay', n);
    const { status, body, analyses, statements, warnings } = await measured(
      `/api/records/1.0/search/?dataset=flights&rows=0&${facets}`,
    );
    console.log(`      v1 flights: ${n} facets, ${analyses} analyses, ${statements} statements`);
    expect(status, JSON.stringify(body).slice(0, 300)).to.equal(200);
    expect(body.facet_groups).to.have.length(n);
    // The count (and no page: rows=0) besides the facets' statements.
    expect(statements, 'statements').to.be.at.most(Math.ceil(n / KEYS_PER_STATEMENT) + 2);
    expect(analyses, 'analyses').to.be.at.most(n + statements + 3);
    expect(warnings, 'process warnings').to.deep.equal([]);
  });

  describe(`at most ${MAX_FACETS} facet parameters a request`, () => {
    const routes = [
      `${V21}/catalog/datasets/flights/facets?`,
      `${V21}/catalog/datasets/flights/records?limit=0&`,
      `${V21}/catalog/datasets/flights/exports/csv?limit=1&`,
      `${V21}/catalog/facets?`,
      '/api/explore/v2.0/catalog/datasets/flights/facets?',
      '/api/records/1.0/search/?dataset=flights&rows=0&',
      '/api/datasets/1.0/search/?rows=0&',
    ];
    // A field of the dataset, or of the catalog.
    const many = (route: string, n: number) =>
      Array.from({ length: n }, () => (route.includes('flights') ? 'facet=origin' : 'facet=theme')).join('&');
    const expected = `Invalid value for facet API parameter: ${MAX_FACETS + 1} facet parameters were found but at most ${MAX_FACETS} are expected.`;

    for (const route of routes) {
      it(`${route.split('?')[0]}: ${MAX_FACETS} answered, ${MAX_FACETS + 1} a 400 naming facet and the bound`, async () => {
        const over = await suite.server.get(route + many(route, MAX_FACETS + 1));
        const body = (await over.json()) as Record<string, unknown>;
        expect(over.status).to.equal(400);
        if (route.includes('/1.0/')) expect(body).to.deep.equal({ errorcode: 400, error: expected });
        else expect(body).to.deep.equal({ error_code: 'InvalidRESTParameterError', message: expected });
        const at = await suite.server.get(route + many(route, MAX_FACETS));
        await at.arrayBuffer();
        expect(at.status, route).to.equal(200);
      });
    }
  });
});
