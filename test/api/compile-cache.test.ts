// Compiled queries kept by source and inputs (src/odsql/compile-cache.ts): the same query over the
// same source compiles once; another audience of the dataset, or the dataset re-ingested and
// reloaded, is another source whose queries compile anew (with the response cache off, so that
// every answer below comes from a compile).
import { expect } from 'chai';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ingest } from '../../src/ingest/ingest.js';
import { compileQuery } from '../../src/odsql/index.js';
import { buildFixturePortal, restrictTowns } from '../helpers/fixture-portal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { SOURCE } from '../odsql/fixture.js';

const V21 = '/api/explore/v2.1';

describe('compiled queries kept', () => {
  it('gives the same compiled query for the same source and inputs, and compiles anew otherwise', () => {
    const params = { where: ['n > 1'], orderBy: 'name', limit: 10 };
    const first = compileQuery(SOURCE, params);
    expect(compileQuery(SOURCE, { ...params }), 'the same inputs').to.equal(first);
    expect(compileQuery(SOURCE, { ...params, limit: 20 }).sql).to.include('LIMIT 20');
    const copy = { ...SOURCE };
    const again = compileQuery(copy, params);
    expect(again, 'another source object').to.not.equal(first);
    expect(again.sql).to.equal(first.sql);
    const narrower = { ...SOURCE, fields: SOURCE.fields.filter((f) => f.name !== 'n') };
    expect(() => compileQuery(narrower, params), 'a field this source lacks').to.throw(/n/);
    expect(() => compileQuery(SOURCE, { where: ['n >'] })).to.throw();
    expect(() => compileQuery(SOURCE, { where: ['n >'] }), 'a failure is not kept').to.throw();
  });

  describe('over HTTP', () => {
    let dir: string;
    let server: TestServer;
    const keys = new Map<string, string>();

    before(async () => {
      dir = await buildFixturePortal();
      const callers = await restrictTowns(dir);
      keys.set('staff', callers.staff);
      keys.set('filtered', callers.filtered);
      keys.set('no founded', callers.hidden);
      const csv = path.join(dir, 'alpha.csv');
      await writeFile(csv, 'name,n\none,1\ntwo,2\n');
      await ingest({ file: csv, portal: dir, id: 'alpha' });
      server = await startTestServer(dir, { cacheBytes: 0 });
    });
    after(async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    });

    const get = async (route: string, caller?: string) => {
      const key = caller === undefined ? undefined : keys.get(caller);
      const response = await server.get(route, key ? { headers: { Authorization: `Apikey ${key}` } } : {});
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    it('compiles the same query for each audience of a dataset', async () => {
      const where = encodeURIComponent("founded > date'1900-01-01'");
      const route = `${V21}/catalog/datasets/towns/records?where=${where}&order_by=name`;
      for (let round = 0; round < 2; round++) {
        const staff = await get(route, 'staff');
        expect(staff.status).to.equal(200);
        expect(staff.body.total_count).to.be.above(1);
        const filtered = await get(route, 'filtered');
        expect(filtered.body.results, 'the row filter applies').to.deep.equal([
          (staff.body.results as { name: string }[]).find((town) => town.name === 'Lyon'),
        ]);
        const hidden = await get(route, 'no founded');
        expect(hidden.status, 'a hidden field is unknown to its audience').to.equal(400);
        expect(hidden.body.error_code).to.equal('QueryLangError');
      }
    });

    it('compiles anew over a dataset re-ingested and reloaded', async () => {
      const route = `${V21}/catalog/datasets/alpha/records?where=n>1`;
      expect((await get(route)).body.total_count).to.equal(1);
      const csv = path.join(dir, 'alpha.csv');
      await writeFile(csv, 'name,m\none,1\ntwo,2\nthree,3\n');
      await ingest({ file: csv, portal: dir, id: 'alpha' });
      await server.portal.reload();
      const gone = await get(route);
      expect(gone.status, 'the field n is gone').to.equal(400);
      expect((await get(`${V21}/catalog/datasets/alpha/records?where=m>1`)).body.total_count).to.equal(2);
    });
  });
});
