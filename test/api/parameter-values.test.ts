// A parameter given a value outside its domain is a 400 naming the parameter and what it accepts,
// booleans and lists of formats included, never silently read as false or as nothing
// (issue 30, item 8).
import { expect } from 'chai';
import { useSampleSuite } from '../helpers/sample-portal.js';

const V21 = '/api/explore/v2.1';

/** Path, boolean parameter: every v2.1 and v1 boolean, on an operation that takes it. */
const BOOLEANS: [string, string][] = [
  ['/catalog/datasets', 'include_links'],
  ['/catalog/datasets', 'include_app_metas'],
  ['/catalog/datasets/airports', 'include_links'],
  ['/catalog/datasets/airports', 'include_app_metas'],
  ['/catalog/datasets/airports/records', 'include_links'],
  ['/catalog/datasets/airports/records', 'include_app_metas'],
  ['/catalog/datasets/airports/facets', 'include_links'],
  ['/catalog/datasets/airports/exports/csv', 'use_labels'],
  ['/catalog/datasets/airports/exports/csv', 'compressed'],
  ['/catalog/datasets/airports/exports/csv', 'quote_all'],
  ['/catalog/datasets/airports/exports/csv', 'with_bom'],
  ['/catalog/datasets/airports/exports/gpx', 'use_extension'],
  ['/catalog/exports/dcat_ap_ch', 'use_labels_in_exports'],
];

describe('parameter values (sample portal)', () => {
  const suite = useSampleSuite();

  for (const [route, name] of BOOLEANS) {
    it(`${name}=Bogus on ${route} is a 400 naming ${name} and true or false`, async () => {
      const { status, body } = await suite.server.json(`${V21}${route}?${name}=Bogus`);
      expect(status).to.equal(400);
      expect(body).to.deep.equal({
        error_code: 'InvalidRESTParameterError',
        message: `Invalid value for ${name} API parameter: Bogus was found but true or false is expected.`,
      });
    });
  }

  it('accepts true, false, 1 and 0 in any case', async () => {
    for (const value of ['true', 'FALSE', 'True', '1', '0']) {
      const { status } = await suite.server.json(`${V21}/catalog/datasets/airports?include_links=${value}`);
      expect(status, value).to.equal(200);
    }
  });

  it('refuses an include_exports item that is not an export format, naming the formats', async () => {
    const { status, body } = await suite.server.json(
      `${V21}/catalog/exports/dcat_ap_ch?include_exports=csv,bogus`,
    );
    expect(status).to.equal(400);
    expect(body.error_code).to.equal('InvalidRESTParameterError');
    expect(body.message).to.match(
      /^Invalid value for include_exports API parameter: bogus was found but a comma-separated list of csv, .*json.* is expected\.$/,
    );
  });

  it('keeps the distributions include_exports names, and only them', async () => {
    const response = await suite.server.get(
      `${V21}/catalog/exports/dcat_ap_ch?include_exports=csv,%20parquet`,
    );
    expect(response.status).to.equal(200);
    const formats = new Set(
      [...(await response.text()).matchAll(/\/exports\/(\w+)"/g)].map((match) => match[1]),
    );
    expect([...formats].sort()).to.deep.equal(['csv', 'parquet']);
  });

  it('refuses v1 disjunctive.<facet>=bogus in the v1 error form, naming the parameter', async () => {
    const { status, body } = await suite.server.json(
      '/api/records/1.0/search?dataset=airports&facet=state&disjunctive.state=bogus',
    );
    expect(status).to.equal(400);
    expect(body).to.deep.equal({
      errorcode: 400,
      error:
        'Invalid value for disjunctive.state API parameter: bogus was found but true or false is expected.',
    });
  });
});
