// The count of every record of a dataset served by DuckDB is its records_count, with no statement
// run; any condition or row filter is counted by the engine.
import { expect } from 'chai';
import { rm } from 'node:fs/promises';
import { buildFixturePortal, restrictTowns } from '../helpers/fixture-portal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const V21 = '/api/explore/v2.1';

describe('whole-dataset counts', () => {
  let dir: string;
  let server: TestServer;
  let statements = 0;
  const keys = new Map<string, string>();

  before(async () => {
    dir = await buildFixturePortal();
    const callers = await restrictTowns(dir);
    keys.set('staff', callers.staff);
    keys.set('filtered', callers.filtered);
    server = await startTestServer(dir, { cacheBytes: 0 });
    const engine = server.portal.services.engine as unknown as Record<
      'queryJson',
      (...a: unknown[]) => unknown
    >;
    const queryJson = engine.queryJson.bind(engine);
    engine.queryJson = (...args: unknown[]) => {
      statements++;
      return queryJson(...args);
    };
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** total_count of a records request and the statements it ran. */
  const count = async (route: string, caller?: string) => {
    const key = caller === undefined ? undefined : keys.get(caller);
    const before = statements;
    const response = await server.get(
      `${V21}/catalog/datasets/${route}`,
      key ? { headers: { Authorization: `Apikey ${key}` } } : {},
    );
    expect(response.status, route).to.equal(200);
    const body = (await response.json()) as { total_count: number; results: unknown[] };
    return { total: body.total_count, rows: body.results.length, statements: statements - before };
  };

  it('answers the count of every record from records_count', async () => {
    expect(await count('words/records?limit=0')).to.deep.equal({ total: 5, rows: 0, statements: 0 });
    expect(await count('words/records?limit=2')).to.deep.equal({ total: 5, rows: 2, statements: 1 });
    expect(await count('towns/records?limit=0', 'staff')).to.deep.equal({ total: 3, rows: 0, statements: 0 });
  });

  it('counts with the engine under a condition or a row filter', async () => {
    expect(await count("words/records?limit=0&where=word='zzz'")).to.deep.equal({
      total: 0,
      rows: 0,
      statements: 1,
    });
    expect(await count('towns/records?limit=0', 'filtered')).to.deep.equal({
      total: 1,
      rows: 0,
      statements: 1,
    });
    expect((await count('towns/records?limit=0&group_by=name', 'staff')).total, 'groups').to.equal(3);
  });
});
