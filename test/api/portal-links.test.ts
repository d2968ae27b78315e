// The portal's own links as scripts and published clients write them: the explore pages' download
// links (`/explore/dataset/<id>/download/?format=...` with the pages' filters), and URLs with a
// doubled slash (`//api/...`); each answer compared with the same rows read by a plain DuckDB.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { makePrivate, startFixtureServer } from '../helpers/fixture-portal.js';
import { useSampleSuite } from '../helpers/sample-portal.js';

describe('portal download links and doubled slashes (sample portal)', () => {
  const suite = useSampleSuite();
  let dir: string;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'portal-links-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** The rows DuckDB reads in `bytes` (a CSV with `separator`, or a Parquet file). */
  let files = 0;
  const readBack = async (bytes: Buffer, reader: string): Promise<Record<string, unknown>[]> => {
    const file = path.join(dir, `answer-${++files}`);
    await writeFile(file, bytes);
    return suite.reference.rows(`SELECT * FROM ${reader.replace('FILE', `'${file}'`)}`);
  };
  const download = async (link: string) => {
    const response = await suite.server.get(link);
    return { response, bytes: Buffer.from(await response.arrayBuffer()) };
  };

  it('answers a CSV link copied from a script: labels as headers, its separator, every row', async () => {
    // As opendata.vancouver.ca's and opendata.paris.fr's links are written, the host aside.
    const { response, bytes } = await download(
      '/explore/dataset/airports/download/?format=csv&timezone=Europe/Berlin&lang=fr&use_labels_for_header=true&csv_separator=%3B',
    );
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^text\/csv/);
    expect(response.headers.get('content-disposition')).to.include('airports.csv');
    const header = bytes.toString('utf8').split('\n')[0]!;
    expect(header.split(';').slice(0, 3)).to.deep.equal(['IATA/FAA code', 'Airport', 'City']);
    const rows = await readBack(bytes, `read_csv(FILE, delim = ';', header = true, all_varchar = true)`);
    const [expected] = await suite.reference.rows('SELECT count(*)::INTEGER AS n FROM airports');
    expect(rows.length).to.equal(expected!.n);
  });

  it('filters with q, refine.*, exclude.* and a bare disjunctive.*, separated by commas', async () => {
    const link =
      '/explore/dataset/airports/download/?disjunctive.state&refine.country=USA&exclude.state=CA' +
      '&q=latitude%3E%3D45&format=csv&csv_separator=,&timezone=UTC';
    const { response, bytes } = await download(link);
    expect(response.status).to.equal(200);
    const rows = await readBack(bytes, `read_csv(FILE, delim = ',', header = true, all_varchar = true)`);
    const expected = await suite.reference.rows(
      `SELECT iata FROM airports WHERE country = 'USA' AND state <> 'CA' AND latitude >= 45 ORDER BY iata`,
    );
    expect(rows.map((r) => r.iata).sort()).to.deep.equal(expected.map((r) => r.iata));
  });

  it('answers json as the v1 download (v1 records) and geojson as a FeatureCollection', async () => {
    const json = await (
      await suite.server.get('/explore/dataset/airports/download/?format=json&q=state:NV')
    ).json();
    const [nv] = await suite.reference.rows(`SELECT count(*)::INTEGER AS n FROM airports WHERE state = 'NV'`);
    expect(json).to.have.length(Number(nv!.n));
    expect(Object.keys(json[0]).sort()).to.deep.equal([
      'datasetid',
      'fields',
      'geometry',
      'record_timestamp',
      'recordid',
    ]);
    expect(json[0].datasetid).to.equal('airports');
    const geo = await (
      await suite.server.get('/explore/dataset/airports/download?format=geojson&refine.state=NV')
    ).json();
    expect(geo.type).to.equal('FeatureCollection');
    expect(geo.features).to.have.length(Number(nv!.n));
  });

  it('answers the formats v1 does not write as the v2.1 export of the same records (parquet)', async () => {
    const { response, bytes } = await download(
      '/explore/dataset/seattle-weather/download/?format=parquet&refine.weather=sun&fields=date,weather',
    );
    expect(response.status).to.equal(200);
    const rows = await readBack(bytes, `read_parquet(FILE)`);
    const expected = await suite.reference.rows(`SELECT date FROM "seattle-weather" WHERE weather = 'sun'`);
    expect(rows.length).to.equal(expected.length);
    expect(Object.keys(rows[0]!)).to.deep.equal(['date', 'weather']);
  });

  it('answers an unknown dataset and a bad format with the API error object, never the HTML 404', async () => {
    const missing = await suite.server.json('/explore/dataset/nope/download/?format=csv');
    expect(missing.status).to.equal(404);
    expect(missing.body).to.have.property('errorcode', 404);
    const wrong = await suite.server.json('/explore/dataset/airports/download/?format=doc');
    expect(wrong.status).to.equal(400);
    expect(wrong.body.error).to.match(/format/);
    // The dataset's pages are still pages.
    const page = await suite.server.get('/explore/dataset/airports/table/');
    expect(page.headers.get('content-type')).to.match(/^text\/html/);
  });

  it('answers //api/... (and doubled slashes inside the path) as /api/..., without a redirect', async () => {
    const plain = await suite.server.json('/api/explore/v2.1/catalog/datasets?limit=2&order_by=dataset_id');
    for (const doubled of [
      '//api/explore/v2.1/catalog/datasets?limit=2&order_by=dataset_id',
      '/api/explore/v2.1//catalog/datasets/?limit=2&order_by=dataset_id',
    ]) {
      const response = await suite.server.get(doubled, { redirect: 'manual' });
      expect(response.status, doubled).to.equal(200);
      expect(await response.json(), doubled).to.deep.equal(plain.body);
    }
    const v1 = await suite.server.json('//api/records/1.0/search/?dataset=airports&q=iata:SFO');
    expect(v1.status).to.equal(200);
    expect(v1.body.records[0].fields.city).to.equal('San Francisco');
  });
});

describe('download links of a private portal', () => {
  it('want a key (401 in the API error object, no sign-in redirect) and answer with one', async () => {
    let key = '';
    const server = await startFixtureServer(async (dir) => {
      key = await makePrivate(dir);
    });
    try {
      const refused = await server.get('/explore/dataset/towns/download/?format=csv', { redirect: 'manual' });
      expect(refused.status).to.equal(401);
      expect(await refused.json()).to.have.property('errorcode', 401);
      const answered = await server.get(`/explore/dataset/towns/download/?format=csv&apikey=${key}`);
      expect(answered.status).to.equal(200);
      expect((await answered.text()).split('\n')[0]).to.equal('name;population;founded;geo_point_2d');
    } finally {
      await server.close();
    }
  });
});
