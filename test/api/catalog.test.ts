// The v2.1 catalog operations, asserted against the spec's shapes on a fixture portal.
import { expect } from 'chai';
import { startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';

const V21 = '/api/explore/v2.1';

describe('v2.1 catalog', () => {
  let server: TestServer;

  before(async () => {
    server = await startFixtureServer();
  });
  after(() => server.close());

  describe('GET /catalog/datasets', () => {
    it('lists every valid dataset with total_count, skipping a broken one with a logged reason', async () => {
      const { status, body } = await server.json(`${V21}/catalog/datasets`);
      expect(status).to.equal(200);
      expect(body.total_count).to.equal(2);
      expect(body.results.map((d: any) => d.dataset_id)).to.deep.equal(['towns', 'words']);
      expect(server.logs.join('\n')).to.match(
        /broken[/\\]dataset\.json: .*metas.*expected object|broken[/\\]dataset\.json: /,
      );
      expect(server.logs.join('\n')).to.include('fields.0.name');
    });

    it('pages with limit and offset', async () => {
      const { body } = await server.json(`${V21}/catalog/datasets?limit=1&offset=1`);
      expect(body.total_count).to.equal(2);
      expect(body.results.map((d: any) => d.dataset_id)).to.deep.equal(['words']);
    });

    it('rejects a limit out of range in the public wording', async () => {
      const { status, body } = await server.json(`${V21}/catalog/datasets?limit=1473`);
      expect(status).to.equal(400);
      expect(body).to.deep.equal({
        error_code: 'InvalidRESTParameterError',
        message: 'Invalid value for limit API parameter: 1473 was found but -1 <= limit <= 100 is expected.',
      });
    });

    it('rejects a non-integer offset and an unknown timezone', async () => {
      expect((await server.json(`${V21}/catalog/datasets?offset=x`)).body.error_code).to.equal(
        'InvalidRESTParameterError',
      );
      const tz = await server.json(`${V21}/catalog/datasets?timezone=Mars/Olympus`);
      expect(tz.status).to.equal(400);
      expect(tz.body.message).to.include('timezone');
    });

    it('accepts a trailing slash', async () => {
      const { status, body } = await server.json(`${V21}/catalog/datasets/`);
      expect(status).to.equal(200);
      expect(body.total_count).to.equal(2);
    });
  });

  describe('GET /catalog/datasets/{id}', () => {
    it('returns the dataset in the v2.1 shape', async () => {
      const { status, body } = await server.json(`${V21}/catalog/datasets/towns`);
      expect(status).to.equal(200);
      expect(Object.keys(body)).to.deep.equal([
        'dataset_id',
        'dataset_uid',
        'attachments',
        'has_records',
        'data_visible',
        'fields',
        'metas',
        'features',
      ]);
      expect(body.dataset_id).to.equal('towns');
      expect(body.has_records).to.equal(true);
      expect(body.data_visible).to.equal(true);
      expect(body.features).to.deep.equal(['analyze', 'geo', 'timeserie']);
      expect(body.fields[0]).to.deep.equal({
        name: 'name',
        label: 'Name',
        type: 'text',
        description: null,
        annotations: { facet: [] },
      });
      expect(Object.keys(body.metas)).to.deep.equal(['default', 'dcat']);
      expect(body.metas.dcat).to.deep.equal({ creator: 'tests' });
    });

    it('writes annotations without arguments as empty arrays, in the lookup and the catalog list alike', async () => {
      // explore-api.md: in v2.1 an annotation maps to its args, an empty array when there are none.
      const expected = [
        ['name', { facet: [] }],
        ['population', {}],
        ['founded', { timerangeFilter: [] }],
      ];
      const lookup = (await server.json(`${V21}/catalog/datasets/towns`)).body;
      const list = (await server.json(`${V21}/catalog/datasets?where=dataset_id%3D'towns'`)).body;
      for (const fields of [lookup.fields, list.results[0].fields]) {
        const byName = new Map(fields.map((f: any) => [f.name, f.annotations]));
        for (const [name, annotations] of expected) expect(byName.get(name)).to.deep.equal(annotations);
      }
    });

    it('fills metas.default with every key of the spec', async () => {
      const { body } = await server.json(`${V21}/catalog/datasets/towns`);
      const metas = body.metas.default;
      const v1Keys = [
        'domain',
        'staged',
        'visibility',
        'metadata_processed',
        'data_processed',
        'modified',
        'license',
        'license_url',
        'description',
        'publisher',
        'theme',
        'title',
        'keyword',
        'federated',
        'modified_updates_on_metadata_change',
        'modified_updates_on_data_change',
        'geographic_reference_auto',
        'geographic_reference',
        'references',
        'metadata_languages',
        'language',
        'attributions',
        'territory',
        'records_count',
        'temporal_coverage_from',
        'temporal_coverage_to',
        'bbox',
        'geometry_types',
      ];
      const v2Keys = [
        'source_domain_address',
        'source_domain_title',
        'source_domain',
        'parent_domain',
        'shared_catalog',
        'source_dataset',
        'geographic_area',
        'geographic_area_mode',
        'timezone',
        'oauth_scope',
      ];
      expect(metas).to.include.all.keys(...v1Keys, ...v2Keys);
      expect(metas.domain).to.equal('fixture.test');
      expect(metas.records_count).to.equal(3);
      expect(metas.modified).to.equal('2024-03-01T10:00:00+00:00');
      expect(metas.geometry_types).to.deep.equal(['Point']);
      expect(metas.bbox).to.deep.equal({
        type: 'Polygon',
        coordinates: [
          [
            [2.35, 45.76],
            [4.83, 45.76],
            [4.83, 48.85],
            [2.35, 48.85],
            [2.35, 45.76],
          ],
        ],
      });
    });

    it('writes timestamps in the requested timezone', async () => {
      const { body } = await server.json(`${V21}/catalog/datasets/towns?timezone=Europe/Paris`);
      expect(body.metas.default.data_processed).to.equal('2024-03-01T11:00:00+01:00');
    });

    it("takes a time zone alias as the compiler does (Asia/Kolkata is Intl's Asia/Calcutta)", async () => {
      const alias = await server.json(`${V21}/catalog/datasets/towns?timezone=Asia/Kolkata`);
      const canonical = await server.json(`${V21}/catalog/datasets/towns?timezone=Asia/Calcutta`);
      expect(alias.status).to.equal(200);
      expect(alias.body.metas.default.data_processed).to.equal('2024-03-01T15:30:00+05:30');
      expect(alias.body).to.deep.equal(canonical.body);
    });

    it('adds links and app metas only when asked', async () => {
      const { body } = await server.json(
        `${V21}/catalog/datasets/towns?include_links=true&include_app_metas=true`,
      );
      expect(body.app_metas).to.deep.equal({ color: 'blue' });
      expect(body.links.map((l: any) => l.rel)).to.deep.equal([
        'self',
        'datasets',
        'records',
        'exports',
        'facets',
        'attachments',
      ]);
      expect(body.links[0].href).to.equal(`${server.base}${V21}/catalog/datasets/towns`);
    });

    it('answers 404 NotFoundResource for an unknown or broken dataset', async () => {
      for (const id of ['nope', 'broken']) {
        const { status, body } = await server.json(`${V21}/catalog/datasets/${id}`);
        expect(status).to.equal(404);
        expect(body).to.deep.equal({
          error_code: 'NotFoundResource',
          message: `The requested dataset ${id} does not exist.`,
        });
      }
    });

    it('refuses methods other than GET with 405 and the error shape', async () => {
      const response = await server.get(`${V21}/catalog/datasets/towns`, { method: 'POST' });
      expect(response.status).to.equal(405);
      expect((await response.json()).error_code).to.equal('MethodNotAllowed');
    });
  });

  describe('attachments', () => {
    it('lists the regular files with slug ids, never hidden files or links', async () => {
      const { status, body } = await server.json(`${V21}/catalog/datasets/towns/attachments`);
      expect(status).to.equal(200);
      expect(body.attachments.map((a: any) => a.metas)).to.deep.equal([
        {
          'mime-type': 'application/zip',
          title: 'cities1000.zip',
          url: 'odsfile://cities1000.zip',
          id: 'cities1000_zip',
        },
        {
          'mime-type': 'text/plain',
          title: 'Notes Été.txt',
          url: 'odsfile://Notes Été.txt',
          id: 'notes_ete_txt',
        },
      ]);
      expect(body.attachments[0].href).to.equal(
        `${server.base}${V21}/catalog/datasets/towns/attachments/cities1000_zip`,
      );
    });

    it('downloads an attachment with its content type and file name', async () => {
      const response = await server.get(`${V21}/catalog/datasets/towns/attachments/notes_ete_txt`);
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^text\/plain/);
      expect(response.headers.get('content-disposition')).to.include('attachment');
      expect(await response.text()).to.equal('hello attachments\n');
    });

    it('answers 404 to anything that is not a listed id', async () => {
      const attempts = [
        'link_txt',
        '.hidden',
        '..%2F..%2Fportal.json',
        '%2e%2e%2foutside.txt',
        '%252e%252e%252f',
        'cities1000.zip',
        '%2Fetc%2Fpasswd',
        'cities1000_zip%00',
      ];
      for (const attempt of attempts) {
        const response = await server.get(`${V21}/catalog/datasets/towns/attachments/${attempt}`);
        expect(response.status, attempt).to.equal(404);
        expect(await response.text()).not.to.include('must never be served');
      }
    });
  });

  describe('export lists', () => {
    it('lists every dataset export format, geo formats only with a geo field', async () => {
      const towns = await server.json(`${V21}/catalog/datasets/towns/exports`);
      expect(towns.body.links[0]).to.deep.equal({
        rel: 'self',
        href: `${server.base}${V21}/catalog/datasets/towns/exports`,
      });
      expect(towns.body.links.slice(1).map((l: any) => l.rel)).to.include.members([
        'csv',
        'parquet',
        'geojson',
        'shp',
        'arrow',
      ]);
      expect(towns.body.links[1].href).to.equal(`${server.base}${V21}/catalog/datasets/towns/exports/csv`);
      const words = await server.json(`${V21}/catalog/datasets/words/exports`);
      const rels = words.body.links.map((l: any) => l.rel);
      expect(rels).to.include('csv');
      expect(rels).not.to.include('geojson');
    });

    it('lists the catalog export formats', async () => {
      const { body } = await server.json(`${V21}/catalog/exports`);
      expect(body.links.map((l: any) => l.rel)).to.include.members(['self', 'csv', 'rdf', 'dcat_ap_ch']);
    });
  });

  it('answers an unknown path with 404 in the error shape', async () => {
    const { status, body } = await server.json('/api/explore/v2.1/nothing-here');
    expect(status).to.equal(404);
    expect(body.error_code).to.equal('NotFoundResource');
  });
});
