// The v1 record search, lookup and download on the sample portal; counts are checked against the
// same question asked of the Parquet files through a separate, plain DuckDB.
import { expect } from 'chai';
import { useSampleSuite } from '../helpers/sample-portal.js';

describe('v1 records (sample portal)', () => {
  const suite = useSampleSuite();

  const search = (params: Record<string, string> | [string, string][]) =>
    suite.server.json(`/api/records/1.0/search/?${new URLSearchParams(params).toString()}`);
  const count = async (sql: string): Promise<number> =>
    Number((await suite.reference.rows(`SELECT count(*)::INTEGER AS n FROM ${sql}`))[0]!.n);

  describe('shapes (supplement 6)', () => {
    it('answers nhits, the normalized parameters and v1 records field by field', async () => {
      const { status, body } = await search({ dataset: 'airports', q: 'iata:SFO', rows: '1' });
      expect(status).to.equal(200);
      expect(Object.keys(body)).to.deep.equal(['nhits', 'parameters', 'records']);
      expect(body.nhits).to.equal(1);
      expect(body.parameters).to.deep.equal({
        dataset: ['airports'],
        timezone: 'UTC',
        rows: 1,
        start: 0,
        format: 'json',
        q: 'iata:SFO',
      });
      const [record] = body.records;
      expect(Object.keys(record)).to.deep.equal([
        'datasetid',
        'recordid',
        'fields',
        'geometry',
        'record_timestamp',
      ]);
      expect(record.datasetid).to.equal('airports');
      expect(record.recordid).to.equal('SFO');
      const [row] = await suite.reference.rows(`SELECT * FROM airports WHERE iata = 'SFO'`);
      expect(record.fields).to.deep.equal({
        iata: 'SFO',
        name: row!.name,
        city: 'San Francisco',
        state: 'CA',
        country: 'USA',
        latitude: row!.latitude,
        longitude: row!.longitude,
        location: 'USA/CA',
        geo_point_2d: [row!.latitude, row!.longitude],
      });
      expect(record.geometry).to.deep.equal({ type: 'Point', coordinates: [row!.longitude, row!.latitude] });
      expect(record.record_timestamp).to.match(/^\d{4}-\d{2}-\d{2}T/);
    });

    it('leaves null values out of fields', async () => {
      const { body } = await search({ dataset: 'movies', q: '#null(mpaa_rating)', rows: '5' });
      expect(body.nhits).to.equal(await count('movies WHERE mpaa_rating IS NULL'));
      for (const record of body.records) {
        expect(record.fields).not.to.have.property('mpaa_rating');
        expect(Object.values(record.fields)).not.to.include(null);
      }
    });

    it('gives shapes as GeoJSON geometries, and the record geometry from the point field', async () => {
      const { body } = await search({ dataset: 'earthquakes', rows: '1', sort: 'id' });
      const [record] = body.records;
      const [row] = await suite.reference.rows(
        'SELECT id, geo_point_2d.lat AS lat, geo_point_2d.lon AS lon FROM earthquakes ORDER BY id LIMIT 1',
      );
      expect(record.fields.id).to.equal(row!.id);
      expect(record.fields.geo_shape.type).to.equal('Point');
      expect(record.fields.geo_point_2d).to.deep.equal([row!.lat, row!.lon]);
      expect(record.geometry).to.deep.equal({ type: 'Point', coordinates: [row!.lon, row!.lat] });
    });

    it('selects fields with fields=a,b', async () => {
      const { body } = await search({ dataset: 'airports', q: 'iata:SFO', fields: 'iata,state' });
      expect(body.records[0].fields).to.deep.equal({ iata: 'SFO', state: 'CA' });
      expect(body.records[0]).not.to.have.property('geometry');
    });

    it('answers one record by id, and 404 in the v1 error form for an unknown one', async () => {
      const one = await suite.server.json('/api/datasets/1.0/airports/records/LAX');
      expect(one.body.recordid).to.equal('LAX');
      expect(one.body.fields.city).to.equal('Los Angeles');
      const missing = await suite.server.json('/api/datasets/1.0/airports/records/NOPE');
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({
        errorcode: 404,
        error: 'The requested record NOPE does not exist.',
      });
    });
  });

  describe('parameters', () => {
    it('requires dataset, with a clear v1 error', async () => {
      const { status, body } = await search({ q: 'x' });
      expect(status).to.equal(400);
      expect(body).to.deep.equal({ errorcode: 400, error: 'Missing dataset parameter: it is mandatory.' });
    });

    it('sorts ascending on field and descending on -field (explore-api.md)', async () => {
      const fetch = (sort: string) =>
        search({ dataset: 'seattle-weather', sort, rows: '3', fields: 'temp_max' });
      const [up, down] = await Promise.all([fetch('temp_max'), fetch('-temp_max')]);
      const [extremes] = await suite.reference.rows(
        'SELECT max(temp_max) AS v, min(temp_max) AS w FROM "seattle-weather"',
      );
      expect(up.body.records[0].fields.temp_max).to.equal(extremes!.w);
      expect(down.body.records[0].fields.temp_max).to.equal(extremes!.v);
      expect(down.body.parameters.sort).to.deep.equal(['-temp_max']);
    });

    it('takes language as v1 name of lang, echoes it, and refuses an unknown one', async () => {
      const french = await search({ dataset: 'airports', rows: '0', language: 'fr' });
      expect(french.status).to.equal(200);
      expect(french.body.parameters.language).to.equal('fr');
      const unknown = await search({ dataset: 'airports', rows: '0', language: 'xx' });
      expect(unknown.status).to.equal(400);
      expect(unknown.body.error).to.match(/language/);
    });

    it('pages with rows and start, and refuses start + rows past 10000', async () => {
      const all = await search({ dataset: 'airports', sort: '-iata', rows: '6', fields: 'iata' });
      const second = await search({
        dataset: 'airports',
        sort: '-iata',
        rows: '3',
        start: '3',
        fields: 'iata',
      });
      expect(second.body.records).to.deep.equal(all.body.records.slice(3));
      const far = await search({ dataset: 'flights', start: '9995', rows: '10' });
      expect(far.status).to.equal(400);
      expect(far.body.errorcode).to.equal(400);
      expect(far.body.error).to.match(/start \+ rows <= 10000/);
      expect((await search({ dataset: 'flights', start: '9990', rows: '10' })).body.records).to.have.length(
        10,
      );
      expect((await search({ dataset: 'flights', rows: '10001' })).status).to.equal(400);
    });

    it('reads dates of the query in the timezone, and echoes it', async () => {
      const paris = await search({
        dataset: 'flights',
        q: 'date:2001-01-02',
        timezone: 'Europe/Paris',
        rows: '0',
      });
      expect(paris.body.parameters.timezone).to.equal('Europe/Paris');
      expect(paris.body.nhits).to.equal(
        await count(
          `flights WHERE date >= TIMESTAMPTZ '2001-01-02 00:00:00+01' AND date < TIMESTAMPTZ '2001-01-03 00:00:00+01'`,
        ),
      );
    });
  });

  describe('geofilters (latitude first)', () => {
    const inBox = `airports WHERE latitude BETWEEN 37 AND 38 AND longitude BETWEEN -123 AND -122`;

    it('geofilter.bbox=s,w,n,e', async () => {
      const { body } = await search({ dataset: 'airports', 'geofilter.bbox': '37,-123,38,-122', rows: '0' });
      expect(body.nhits).to.equal(await count(inBox));
    });

    it('geofilter.bbox takes the two corners in either order (n,e,s,w is the same box)', async () => {
      const { body } = await search({ dataset: 'airports', 'geofilter.bbox': '38,-122,37,-123', rows: '0' });
      expect(body.nhits).to.equal(await count(inBox));
    });

    it('geofilter.polygon=(lat,lon),...', async () => {
      const polygon = '(37,-123),(38,-123),(38,-122),(37,-122)';
      const { body } = await search({ dataset: 'airports', 'geofilter.polygon': polygon, rows: '0' });
      expect(body.nhits).to.equal(await count(inBox));
    });

    it('geofilter.distance=lat,lon,meters', async () => {
      const { body } = await search({
        dataset: 'airports',
        'geofilter.distance': '37.619,-122.375,20000',
        rows: '50',
      });
      // Haversine distance on a 6371 km sphere, computed here independently.
      const expected = await count(`airports WHERE 2 * 6371008.8 * asin(sqrt(
        pow(sin(radians(latitude - 37.619) / 2), 2) +
        cos(radians(37.619)) * cos(radians(latitude)) * pow(sin(radians(longitude + 122.375) / 2), 2))) <= 20000`);
      expect(body.nhits).to.equal(expected);
      expect(body.records.map((r: { recordid: string }) => r.recordid)).to.include('SFO');
    });

    it('refuses a malformed geofilter', async () => {
      const { status, body } = await search({ dataset: 'airports', 'geofilter.bbox': '37,-123' });
      expect(status).to.equal(400);
      expect(body.error).to.match(/geofilter\.bbox/);
    });
  });

  describe('facets, refine, exclude', () => {
    it('answers facet_groups in the v1 form, counted under q', async () => {
      const { body } = await search({ dataset: 'airports', q: 'latitude>=60', facet: 'state', rows: '0' });
      const expected = await suite.reference.rows(
        'SELECT state, count(*)::INTEGER AS n FROM airports WHERE latitude >= 60 GROUP BY state ORDER BY state',
      );
      expect(body.facet_groups).to.have.length(1);
      expect(body.facet_groups[0].name).to.equal('state');
      expect(body.facet_groups[0].facets).to.deep.equal(
        expected.map((r) => ({ name: r.state, path: r.state, count: r.n, state: 'displayed' })),
      );
    });

    it('counts facets under every condition it filters on, whatever its numbers', async () => {
      // 1e21 m holds the whole Earth: the records and the facets are those of the whole dataset.
      const whole = await search({ dataset: 'airports', facet: 'state', rows: '0' });
      const { status, body } = await search({
        dataset: 'airports',
        'geofilter.distance': '37.619,-122.375,1000000000000000000000',
        facet: 'state',
        rows: '0',
      });
      expect(status).to.equal(200);
      expect(body.nhits).to.equal(await count('airports'));
      expect(body.facet_groups).to.deep.equal(whole.body.facet_groups);
    });

    it('refine.<facet> and exclude.<facet> filter and are echoed as objects', async () => {
      const refined = await search([
        ['dataset', 'airports'],
        ['refine.state', 'CA'],
        ['exclude.city', 'San Francisco'],
        ['facet', 'state'],
        ['rows', '0'],
      ]);
      expect(refined.body.nhits).to.equal(
        await count(`airports WHERE state = 'CA' AND city <> 'San Francisco'`),
      );
      expect(refined.body.parameters.refine).to.deep.equal({ state: ['CA'] });
      expect(refined.body.parameters.exclude).to.deep.equal({ city: ['San Francisco'] });
      // state is disjunctive: its other values stay listed beside the refined one.
      const ca = refined.body.facet_groups[0].facets.find((f: { name: string }) => f.name === 'CA');
      expect(ca).to.include({
        state: 'refined',
        count: await count(`airports WHERE state = 'CA' AND city <> 'San Francisco'`),
      });
    });

    it('disjunctive.<facet>=true ORs the refinements of that facet', async () => {
      const both = await search([
        ['dataset', 'movies'],
        ['refine.mpaa_rating', 'R'],
        ['refine.mpaa_rating', 'PG'],
        ['disjunctive.mpaa_rating', 'true'],
        ['rows', '0'],
      ]);
      expect(both.body.nhits).to.equal(await count(`movies WHERE mpaa_rating IN ('R', 'PG')`));
    });

    it('facetsort.<facet> orders the values', async () => {
      const { body } = await search({
        dataset: 'seattle-weather',
        facet: 'weather',
        'facetsort.weather': '-count',
        rows: '0',
      });
      const counts = body.facet_groups[0].facets.map((f: { count: number }) => f.count);
      expect(counts).to.deep.equal([...counts].sort((a, b) => b - a));
      const bad = await search({ dataset: 'seattle-weather', facet: 'weather', 'facetsort.weather': 'up' });
      expect(bad.status).to.equal(400);
    });
  });

  describe('download', () => {
    it('streams csv of the filtered records', async () => {
      const response = await suite.server.get(
        '/api/records/1.0/download/?dataset=airports&q=state:NV&format=csv',
      );
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^text\/csv/);
      const lines = (await response.text()).trim().split('\n');
      expect(lines[0]!.split(';')).to.include.members(['iata', 'state', 'geo_point_2d']);
      expect(lines.length - 1).to.equal(await count(`airports WHERE state = 'NV'`));
    });

    it('streams json as v1 records, and geojson', async () => {
      const download = async (query: string) =>
        (await suite.server.get(`/api/records/1.0/download/?${query}`)).json();
      const json = await download('dataset=airports&q=state:NV&format=json');
      expect(json).to.have.length(await count(`airports WHERE state = 'NV'`));
      const [quake] = await download(
        `dataset=earthquakes&q=${encodeURIComponent('#null(felt) id:ci37868143')}&format=json`,
      );
      const searched = await search({ dataset: 'earthquakes', q: 'id:ci37868143' });
      expect(quake).to.deep.equal(searched.body.records[0]);
      expect(quake.fields).not.to.have.property('felt');
      const geo = await download('dataset=airports&q=iata:SFO&format=geojson');
      expect(geo.type).to.equal('FeatureCollection');
      expect(geo.features).to.have.length(1);
      expect(geo.features[0].geometry.type).to.equal('Point');
      expect(geo.features[0].geometry.coordinates[1]).to.be.closeTo(37.619, 0.001);
      expect(geo.features[0].properties.iata).to.equal('SFO');
    });

    it('downloads every row by default, past the 10,000 window, and cuts with rows and start', async () => {
      const csv = async (query: string): Promise<string[]> => {
        const response = await suite.server.get(`/api/records/1.0/download/?${query}`);
        return (await response.text()).trim().split('\n').slice(1);
      };
      const where = `dataset=flights&q=${encodeURIComponent('origin:SFO')}&format=csv&sort=date`;
      const all = await csv(where);
      expect(all.length).to.equal(await count(`flights WHERE origin = 'SFO'`));
      expect(all.length).to.be.above(10_000);
      expect(await csv(`${where}&rows=20000&start=100`)).to.deep.equal(all.slice(100, 20_100));
    });

    it('refuses an unknown format before streaming', async () => {
      const { status, body } = await suite.server.json(
        '/api/records/1.0/download/?dataset=airports&format=xls',
      );
      expect(status).to.equal(400);
      expect(body.errorcode).to.equal(400);
    });
  });
});
