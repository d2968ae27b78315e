// GPX name_field and description_field_list name fields of the export: an unknown one is a 400
// naming the parameter and the field, before the first byte (issue 30, item 10).
import { expect } from 'chai';
import { useSampleSuite } from '../helpers/sample-portal.js';

const GPX = '/api/explore/v2.1/catalog/datasets/airports/exports/gpx';

describe('GPX field options (sample portal)', () => {
  const suite = useSampleSuite();

  const gpx = (params: Record<string, string>) =>
    suite.server.get(`${GPX}?${new URLSearchParams({ where: "iata='SFO'", ...params }).toString()}`);

  it('writes the named fields: name_field as the name, the list as the description', async () => {
    const response = await gpx({ name_field: 'name', description_field_list: 'city, state' });
    expect(response.status).to.equal(200);
    const text = await response.text();
    expect(text).to.contain('<name>San Francisco International</name>');
    expect(text).to.contain('<desc>city: San Francisco&#10;state: CA</desc>');
  });

  for (const [parameter, value, field] of [
    ['name_field', 'nope', 'nope'],
    ['description_field_list', 'city,nope', 'nope'],
    ['description_field_list', 'Name', 'Name'],
  ] as const) {
    it(`refuses ${parameter}=${value}, naming ${field}`, async () => {
      const response = await gpx({ [parameter]: value });
      expect(response.status).to.equal(400);
      const body = await response.json();
      expect(body.error_code).to.equal('InvalidRESTParameterError');
      expect(body.message).to.match(
        new RegExp(`^Invalid value for ${parameter} API parameter: ${field} is not a field of the export`),
      );
    });
  }

  it('names fields of the export, not of the dataset: a field left out by select is unknown', async () => {
    const response = await gpx({ select: 'iata, geo_point_2d', name_field: 'name' });
    expect(response.status).to.equal(400);
    expect((await response.json()).message).to.contain('one of iata, geo_point_2d is expected');
  });
});
