// Fuzz test: 10,080 generated ODSQL inputs per run (grammar and mutations, test/api/fuzz-requests.ts)
// over every clause and endpoint family, one in 8 with a header case (test/api/fuzz-headers.ts),
// sent 8 at a time to the sample portal served by `duckportal serve` in a process of its own (so
// that the event-loop delays it reports after each batch are the server's, not this client's),
// held to the properties of test/api/fuzz-check.ts. Each run draws a new seed; a failure prints
// fast-check's `{ seed, path }`: replay it with FUZZ_SEED=<seed> FUZZ_PATH=<path>.
import { expect } from 'chai';
import { SAMPLE_PORTAL, useSampleSuite } from '../helpers/sample-portal.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { compileQuery } from '../../src/odsql/index.js';
import { SOURCE } from '../odsql/fixture.js';
import { CONCURRENCY, fuzz } from './fuzz-check.js';
import { requests } from './fuzz-requests.js';
import { withHeaderCases } from './fuzz-headers.js';

const RUNS = 1_260;

describe('fuzz: generated ODSQL over every endpoint family (sample portal)', function () {
  this.timeout(1_200_000); // 10,080 requests on a loaded machine: no speed is asserted
  let serve: ServeProcess;
  before(async () => {
    serve = await startServeProcess(SAMPLE_PORTAL);
  });
  after(() => serve.kill());

  it(`${RUNS * CONCURRENCY} inputs: no 5xx, every request answered, clean error bodies, no SQL, path or stack, no listener leak`, async () => {
    const statuses = await fuzz(serve, withHeaderCases(requests), RUNS);
    // A listener leak on a response or signal shows as Node's warning on the server's stderr.
    expect(serve.stderr()).not.to.include('MaxListenersExceededWarning');
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

  it('two group_by keys under one name are a 400, as in select (was the last one on DuckDB, a 500 on ClickHouse)', async () => {
    const groupBy = encodeURIComponent('magtype as a, range(mag, 850) as b, dmin as a');
    const { status, body } = await suite.server.json(
      `/api/explore/v2.1/catalog/datasets/earthquakes/records?group_by=${groupBy}`,
    );
    expect([status, body.message]).to.deep.equal([
      400,
      'Duplicate output name: a. Clause(s) containing the error(s): group_by.',
    ]);
    const same = await suite.server.json(
      `/api/explore/v2.1/catalog/datasets/earthquakes/records?group_by=net,net&limit=1`,
    );
    expect(same.status).to.equal(200);
  });
});
