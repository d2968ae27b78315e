// What a restricted dataset's metadata tells each caller: nothing of its data without access,
// counts under the row filter with one, everything with full access.
import { expect } from 'chai';
import { restrictTowns, startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';

const V21 = '/api/explore/v2.1';

describe('restricted dataset metadata (fixture portal)', () => {
  let server: TestServer;
  const keys = new Map<string, string | null>([['anonymous', null]]);

  before(async () => {
    server = await startFixtureServer(async (portal) => {
      const callers = await restrictTowns(portal);
      keys.set('staff', callers.staff);
      keys.set('filtered', callers.filtered);
      keys.set('no geo', callers.hidden);
    });
  });
  after(() => server.close());

  const get = async (route: string, caller: string) => {
    const key = keys.get(caller);
    const response = await server.get(route, key ? { headers: { Authorization: `Apikey ${key}` } } : {});
    expect(response.status, `${route} as ${caller}`).to.equal(200);
    return response;
  };
  const metasOf = async (caller: string) => {
    const lookup = await (await get(`${V21}/catalog/datasets/towns`, caller)).json();
    const listed = await (await get(`${V21}/catalog/datasets?where=dataset_id='towns'`, caller)).json();
    expect(listed.results[0].metas.default, 'list = lookup').to.deep.equal(lookup.metas.default);
    const { records_count, bbox, geometry_types } = lookup.metas.default;
    return { has_records: lookup.has_records, records_count, bbox: bbox !== null, geometry_types };
  };

  it('tells a caller without access nothing of the data: no count, bbox or geometry types', async () => {
    expect(await metasOf('anonymous')).to.deep.equal({
      has_records: false,
      records_count: null,
      bbox: false,
      geometry_types: null,
    });
    const v1 = await (await get('/api/datasets/1.0/towns', 'anonymous')).json();
    expect(v1.metas.records_count ?? null).to.equal(null);
  });

  it('counts the records under the row filter, without the bbox of rows it cannot read', async () => {
    expect(await metasOf('filtered')).to.deep.equal({
      has_records: true,
      records_count: 1,
      bbox: false,
      geometry_types: null,
    });
    const v1 = await (await get('/api/datasets/1.0/towns', 'filtered')).json();
    expect(v1.metas.records_count).to.equal(1);
  });

  it('shows everything to full access', async () => {
    expect(await metasOf('staff')).to.deep.equal({
      has_records: true,
      records_count: 3,
      bbox: true,
      geometry_types: ['Point'],
    });
  });

  it('keeps a count that depends on the caller out of the shared catalog table', async () => {
    for (const caller of keys.keys()) {
      const route = `${V21}/catalog/datasets?select=dataset_id,records_count,has_records&order_by=dataset_id`;
      const { results } = await (await get(route, caller)).json();
      const towns = results.find((r: any) => r.dataset_id === 'towns');
      expect(towns, caller).to.deep.equal({ dataset_id: 'towns', records_count: null, has_records: null });
      expect(
        results.some((r: any) => typeof r.records_count === 'number'),
        'public ones keep theirs',
      ).to.equal(true);
      const filtered = await get(`${V21}/catalog/datasets?where=records_count>2&select=dataset_id`, caller);
      expect((await filtered.json()).results.map((r: any) => r.dataset_id)).to.not.include('towns');
    }
  });

  it('lists the features each caller can use: analyze with records it reads, geo and timeserie with fields it sees', async () => {
    const featuresOf = async (caller: string) =>
      (await (await get(`${V21}/catalog/datasets/towns`, caller)).json()).features;
    expect(await featuresOf('anonymous'), 'no access: the schema, not the records').to.deep.equal([
      'geo',
      'timeserie',
    ]);
    expect(await featuresOf('filtered')).to.deep.equal(['analyze', 'geo', 'timeserie']);
    expect(await featuresOf('staff')).to.deep.equal(['analyze', 'geo', 'timeserie']);
    expect(await featuresOf('no geo'), 'hidden geo and date fields').to.deep.equal(['analyze']);
    const v1 = await (await get('/api/datasets/1.0/towns', 'anonymous')).json();
    expect(v1.features).to.deep.equal(['geo', 'timeserie']);
    const formats = async (caller: string) =>
      (await (await get(`${V21}/catalog/datasets/towns/exports`, caller)).json()).links.map(
        (l: any) => l.rel,
      );
    expect(await formats('staff')).to.include('geojson');
    expect(await formats('no geo')).to.not.include('geojson');
    for (const caller of keys.keys()) {
      const route = `${V21}/catalog/datasets?select=dataset_id,features&where=dataset_id='towns'`;
      const { results } = await (await get(route, caller)).json();
      expect(results[0].features, `shared table as ${caller}`).to.deep.equal([]);
    }
  });

  it('lists DCAT distributions of a dataset only to callers who may read it', async () => {
    const exports = '/catalog/datasets/towns/exports/';
    for (const [caller, listed] of [
      ['anonymous', false],
      ['filtered', true],
      ['staff', true],
    ] as const) {
      const document = await (await get(`${V21}/catalog/exports/ttl`, caller)).text();
      expect(document, caller).to.include('/catalog/datasets/towns');
      expect(document.includes(exports), caller).to.equal(listed);
    }
  });
});
