// The OpenAPI document: valid OpenAPI 3, listing every route the app's routers serve, with the
// parameters of the zod schemas that validate them.
import { expect } from 'chai';
import SwaggerParser from '@apidevtools/swagger-parser';
import { appRouters } from '../../src/api/routers.js';
import { routesOf, ROUTE_PARAMS } from '../../src/api/openapi.js';
import type { Services } from '../../src/http/services.js';
import { useSampleSuite } from '../helpers/sample-portal.js';

interface Parameter {
  name: string;
  in: string;
  schema: Record<string, unknown>;
}
type Document = { servers: unknown; paths: Record<string, { get: { parameters: Parameter[] } }> };

describe('OpenAPI document', () => {
  const suite = useSampleSuite();
  let document: Document;

  before(async () => {
    document = (await suite.server.json('/api/explore/v2.1/swagger.json')).body as Document;
  });

  it('validates as OpenAPI 3', async () => {
    const api = await SwaggerParser.validate(structuredClone(document) as never);
    expect(api).to.have.property('openapi', '3.0.3');
    // One relative server: the API console's try-it calls the origin that served the document.
    expect(document.servers).to.deep.equal([{ url: '/', description: 'This server' }]);
  });

  it('lists every GET route of the routers, and every route with query parameters has its schema', () => {
    // Routers built over no services: mounting routes reads none of them.
    const routes = routesOf(appRouters({} as Services));
    expect(routes.length).to.be.greaterThan(15);
    expect(Object.keys(document.paths).sort()).to.deep.equal(routes.map((r) => r.path).sort());
    for (const path of Object.keys(ROUTE_PARAMS)) {
      expect(
        routes.map((r) => r.routerPath),
        path,
      ).to.include(path);
    }
  });

  it('gives each parameter the type, default and enum of its zod schema', () => {
    const params = (path: string) => new Map(document.paths[path]!.get.parameters.map((p) => [p.name, p]));
    const records = params('/api/explore/v2.1/catalog/datasets/{dataset_id}/records');
    expect(records.get('dataset_id')).to.include({ in: 'path' });
    expect(records.get('limit')!.schema).to.deep.equal({
      type: 'integer',
      minimum: -1,
      maximum: 20000,
      default: 10,
    });
    expect(records.get('include_links')!.schema).to.deep.equal({ type: 'boolean', default: false });
    expect(records.get('where')!.schema).to.deep.equal({ type: 'array', items: { type: 'string' } });
    expect(records.get('lang')!.schema.enum).to.include('fr');
    expect(records.get('timezone')!.schema.default).to.equal('UTC');
    expect(params('/api/explore/v2.1/catalog/exports/{format}').get('dcat_ap_format')!.schema).to.deep.equal({
      type: 'string',
      enum: ['_ap_ch', '_ap_de', '_ap_se', '_ap_sp', '_ap_it', '_ap_vl', '_ap_benap'],
    });
    const v1 = params('/api/records/1.0/search');
    expect(v1.get('rows')!.schema).to.deep.equal({
      type: 'integer',
      minimum: -1,
      maximum: 10000,
      default: 10,
    });
    expect([...v1.keys()]).to.include.members([
      'dataset',
      'q',
      'geofilter.distance',
      'geofilter.polygon',
      'geofilter.bbox',
    ]);
    expect(params('/api/records/1.0/download').get('format')!.schema).to.deep.equal({
      type: 'string',
      enum: ['csv', 'json', 'geojson'],
      default: 'csv',
    });
  });
});
