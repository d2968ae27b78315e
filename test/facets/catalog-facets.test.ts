// Custom template metas offered as catalog facets by portal.json's catalog_facets.
import { expect } from 'chai';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';

describe('catalog facets of custom templates', () => {
  let server: TestServer;
  before(async () => {
    server = await startFixtureServer(async (dir) => {
      const file = path.join(dir, 'portal.json');
      const settings = JSON.parse(await readFile(file, 'utf8'));
      await writeFile(file, JSON.stringify({ ...settings, catalog_facets: ['dcat.creator'] }));
    });
  });
  after(() => server.close());

  it('enumerates a template meta named in catalog_facets, and refines on it', async () => {
    const { body } = await server.json('/api/explore/v2.1/catalog/facets');
    const creator = body.facets.find((f: any) => f.name === 'dcat.creator');
    expect(creator.facets).to.deep.equal([{ name: 'tests', value: 'tests', count: 2, state: 'displayed' }]);
    const refined = await server.json(
      '/api/explore/v2.1/catalog/datasets?refine=dcat.creator:tests&select=dataset_id',
    );
    expect(refined.body.total_count).to.equal(2);
  });
});
