// The v1 catalog (dataset search and lookup), the v2.0 aliases and CORS, on the sample portal.
import { expect } from 'chai';
import { useSampleSuite } from '../helpers/sample-portal.js';

describe('v1 datasets, v2.0 aliases, CORS (sample portal)', () => {
  const suite = useSampleSuite();

  describe('GET /api/datasets/1.0/search/', () => {
    it('answers nhits, the parameters with the spec defaults, and v1 datasets', async () => {
      const { status, body } = await suite.server.json('/api/datasets/1.0/search/');
      expect(status).to.equal(200);
      expect(body.nhits).to.equal(5);
      expect(body.parameters).to.deep.equal({
        rows: 10,
        start: 0,
        staged: false,
        include_draft: false,
        format: 'json',
        timezone: 'UTC',
      });
      expect(body.datasets.map((d: { datasetid: string }) => d.datasetid).sort()).to.deep.equal([
        'airports',
        'earthquakes',
        'flights',
        'movies',
        'seattle-weather',
      ]);
    });

    it('gives each dataset in the v1 listing form, metas flat', async () => {
      const { body } = await suite.server.json('/api/datasets/1.0/search/?q=iata&rows=1');
      const [airports] = body.datasets;
      expect(airports.datasetid).to.equal('airports');
      expect(Object.keys(airports)).to.deep.equal([
        'datasetid',
        'metas',
        'has_records',
        'data_visible',
        'features',
        'attachments',
        'alternative_exports',
        'fields',
        'basic_metas',
        'interop_metas',
        'extra_metas',
      ]);
      expect(airports.metas).to.include({
        records_count: 3376,
        staged: false,
        visibility: 'domain',
        federated: false,
      });
      expect(airports.metas.title).to.be.a('string');
      expect(airports.metas.geometry_types).to.deep.equal(['Point']);
      expect(airports.metas).not.to.have.property('oauth_scope');
      expect(airports.has_records).to.equal(true);
      expect(airports.features).to.include('geo');
      expect(airports.basic_metas.default).to.include({ title: airports.metas.title });
      expect(airports.basic_metas.default).not.to.have.property('bbox');
      expect(airports.interop_metas.dcat).to.include({ creator: 'Airports (Data.gov)' });
      const state = airports.fields.find((f: { name: string }) => f.name === 'state');
      expect(state.annotations).to.deep.equal([
        { name: 'disjunctive' },
        { name: 'facet' },
        { name: 'facetsort', args: ['alphanum'] },
      ]);
    });

    it('pages with rows and start, sorts ascending on field and descending on -field', async () => {
      const up = await suite.server.json('/api/datasets/1.0/search/?sort=title&rows=5');
      const down = await suite.server.json('/api/datasets/1.0/search/?sort=-title&rows=5');
      const titles = up.body.datasets.map((d: { metas: { title: string } }) => d.metas.title);
      expect(titles).to.deep.equal([...titles].sort());
      expect(down.body.datasets.map((d: { metas: { title: string } }) => d.metas.title)).to.deep.equal(
        [...titles].reverse(),
      );
      const second = await suite.server.json('/api/datasets/1.0/search/?sort=title&rows=2&start=2');
      expect(second.body.datasets.map((d: { datasetid: string }) => d.datasetid)).to.deep.equal(
        up.body.datasets.slice(2, 4).map((d: { datasetid: string }) => d.datasetid),
      );
    });

    it('filters with q, refine.* and facets', async () => {
      const withFacet = await suite.server.json('/api/datasets/1.0/search/?facet=features&rows=0');
      const geo = withFacet.body.facet_groups[0].facets.find((f: { name: string }) => f.name === 'geo');
      const refined = await suite.server.json('/api/datasets/1.0/search/?refine.features=geo&rows=10');
      expect(refined.body.nhits).to.equal(geo.count);
      for (const d of refined.body.datasets) expect(d.features).to.include('geo');
      expect(refined.body.parameters.refine).to.deep.equal({ features: ['geo'] });
    });
  });

  describe('GET /api/datasets/1.0/<id>/', () => {
    it('answers the dataset in the v1 form, 404 in the v1 error form when unknown', async () => {
      const { body } = await suite.server.json('/api/datasets/1.0/movies/');
      expect(body.datasetid).to.equal('movies');
      expect(body.metas.records_count).to.equal(3201);
      const missing = await suite.server.json('/api/datasets/1.0/nope/');
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({
        errorcode: 404,
        error: 'The requested dataset nope does not exist.',
      });
    });
  });

  describe('v2.0 paths', () => {
    for (const prefix of ['/api/explore/v2.0', '/api/v2']) {
      it(`${prefix} answers v2.0's shape with the deprecation header`, async () => {
        const old = await suite.server.get(
          `${prefix}/catalog/datasets/airports/records?limit=2&order_by=iata`,
        );
        const current = await suite.server.get(
          '/api/explore/v2.1/catalog/datasets/airports/records?limit=2&order_by=iata',
        );
        expect(old.status).to.equal(200);
        expect(old.headers.get('ODS-Explore-API-Deprecation')).to.include(
          '/api/explore/v2.1/catalog/datasets/airports/records',
        );
        expect(current.headers.get('ODS-Explore-API-Deprecation')).to.equal(null);
        const v20 = (await old.json()) as { records: { record: { fields: unknown } }[] };
        const v21 = (await current.json()) as { results: unknown[] };
        expect(v20.records.map((r) => r.record.fields)).to.deep.equal(v21.results);
      });
    }

    it('answers 410 for the removed query operations', async () => {
      for (const path of ['/api/explore/v2.0/catalog/query', '/api/v2/catalog/datasets/flights/query']) {
        const { status, body } = await suite.server.json(path);
        expect(status, path).to.equal(410);
        expect(body.error_code).to.equal('GoneOperation');
      }
    });
  });

  describe('CORS', () => {
    it('allows any origin and exposes the rate-limit headers', async () => {
      const response = await suite.server.get('/api/explore/v2.1/catalog/datasets?limit=1', {
        headers: { Origin: 'https://example.org' },
      });
      expect(response.headers.get('access-control-allow-origin')).to.equal('*');
      expect(response.headers.get('access-control-expose-headers')).to.equal(
        'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
      );
    });

    it('answers preflight requests', async () => {
      const response = await suite.server.get('/api/records/1.0/search/?dataset=airports', {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://example.org',
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'authorization',
        },
      });
      expect(response.status).to.equal(204);
      expect(response.headers.get('access-control-allow-origin')).to.equal('*');
      expect(response.headers.get('access-control-allow-methods')).to.include('GET');
      expect(response.headers.get('access-control-allow-headers')).to.equal('authorization');
    });
  });
});
