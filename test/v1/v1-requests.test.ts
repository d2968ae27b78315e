// v1 requests as public client code writes them (URLs typed by hand or built by concatenation:
// encoded or not, odd spacing, repeated parameters, upper-case values, rows=-1, sort=dist), their
// answers checked against the same question asked of the Parquet files in plain DuckDB.
import { expect } from 'chai';
import { SAMPLE_PORTAL, useSampleSuite } from '../helpers/sample-portal.js';

const SEARCH = '/api/records/1.0/search/';
/** Haversine meters from (37.619, -122.375) on the sphere ODSQL uses, computed independently. */
const FROM_SFO = `2 * 6371008.8 * asin(sqrt(pow(sin(radians(latitude - 37.619) / 2), 2) +
  cos(radians(37.619)) * cos(radians(latitude)) * pow(sin(radians(longitude + 122.375) / 2), 2)))`;

describe('v1 requests as clients write them (sample portal)', () => {
  const suite = useSampleSuite();
  const count = async (sql: string): Promise<number> =>
    Number((await suite.reference.rows(`SELECT count(*)::INTEGER AS n FROM ${sql}`))[0]!.n);
  const ids = (body: { records: { recordid: string }[] }) => body.records.map((r) => r.recordid);

  describe('sort=dist with geofilter.distance', () => {
    const nearest = async (direction: 'ASC' | 'DESC') =>
      (
        await suite.reference.rows(
          `SELECT iata FROM airports WHERE ${FROM_SFO} <= 30000 ORDER BY ${FROM_SFO} ${direction}`,
        )
      ).map((r) => r.iata);

    it('sort=dist: nearest first, as apps looking for the closest record ask', async () => {
      const { status, body } = await suite.server.json(
        `${SEARCH}?dataset=airports&q=&sort=dist&facet=state&geofilter.distance=37.619%2C-122.375%2C30000`,
      );
      expect(status).to.equal(200);
      expect(ids(body)).to.deep.equal(await nearest('ASC'));
      expect(body.nhits).to.equal(await count(`airports WHERE ${FROM_SFO} <= 30000`));
    });

    it("sort=-dist: nearest first too, as the apps sending it ask (the public service's minus sorts ascending)", async () => {
      for (const sort of ['-dist', '%2Ddist', '-dist,-iata', 'dist,-dist']) {
        const { body } = await suite.server.json(
          `${SEARCH}?dataset=airports&q=&sort=${sort}&geofilter.distance=37.619%2C+-122.375%2C+30000`,
        );
        expect(ids(body), sort).to.deep.equal(await nearest('ASC'));
      }
      // A field of the dataset keeps the rule of every v1 sort: -field is descending.
      const { body } = await suite.server.json(
        `${SEARCH}?dataset=airports&sort=-iata&geofilter.distance=37.619,-122.375,30000&rows=100`,
      );
      const iatas = await suite.reference.rows(
        `SELECT iata FROM airports WHERE ${FROM_SFO} <= 30000 ORDER BY iata DESC`,
      );
      expect(ids(body)).to.deep.equal(iatas.map((r) => r.iata));
    });

    it('dist then a field, and dist in the download', async () => {
      const { body } = await suite.server.json(
        `${SEARCH}?dataset=airports&sort=dist,-iata&geofilter.distance=37.619,-122.375,30000&rows=1`,
      );
      const csv = await (
        await suite.server.get(
          `/api/records/1.0/download/?dataset=airports&format=CSV&fields=iata&sort=dist&geofilter.distance=37.619,-122.375,30000`,
        )
      ).text();
      expect(ids(body)).to.deep.equal(['SFO']);
      expect(csv.trim().split(/\r?\n/).slice(1)).to.deep.equal(await nearest('ASC'));
    });

    it('sort=dist without geofilter.distance orders nothing (apps send it regardless)', async () => {
      const plain = await suite.server.json(`${SEARCH}?dataset=airports&rows=5`);
      const sorted = await suite.server.json(`${SEARCH}?dataset=airports&rows=5&sort=-dist`);
      expect(sorted.status).to.equal(200);
      expect(ids(sorted.body)).to.deep.equal(ids(plain.body));
    });
  });

  describe('q written by hand', () => {
    const inCa = `airports WHERE state = 'CA' AND latitude >= 38`;
    for (const q of [
      'q=state%3ACA+AND+latitude%3E%3D38',
      'q=state:CA%20AND%20latitude>=38',
      'q=state:CA+latitude+>=+38',
      'q=%20%20state%20:%20CA%20%20%20AND%20(latitude>=38)%20',
      'q=state:CA&q=latitude>=38',
      'q=state:CA&q.range=latitude:[38 TO *]',
      'q.a=state:CA&q.b=latitude>=38&q=',
    ]) {
      it(q, async () => {
        const { status, body } = await suite.server.json(`${SEARCH}?dataset=airports&rows=0&${q}`);
        expect(status, JSON.stringify(body)).to.equal(200);
        expect(body.nhits).to.equal(await count(inCa));
      });
    }

    it('dates with raw slashes, and a repeated q echoed as a list', async () => {
      const { body } = await suite.server.json(
        `${SEARCH}?dataset=seattle-weather&rows=0&q=date>=2013/02/11&q=date<2013/03`,
      );
      expect(body.nhits).to.equal(
        await count(`"seattle-weather" WHERE date >= '2013-02-11' AND date < '2013-03-01'`),
      );
      expect(body.parameters.q).to.deep.equal(['date>=2013/02/11', 'date<2013/03']);
    });
  });

  describe('parameters read in any case, rows=-1', () => {
    it('lang=FR, language=EN, format=JSON', async () => {
      const lang = await suite.server.json(`${SEARCH}?dataset=airports&rows=0&lang=FR&language=EN`);
      expect(lang.status).to.equal(200);
      expect(lang.body.parameters).to.include({ lang: 'fr', language: 'en' });
      const download = await suite.server.get(
        `/api/records/1.0/download/?dataset=airports&format=JSON&rows=2`,
      );
      expect(download.status).to.equal(200);
      expect(download.headers.get('content-type')).to.match(/^application\/json/);
    });

    it('rows=-1 is the largest page the 10,000 window allows', async () => {
      const all = await suite.server.json(`${SEARCH}?dataset=airports&rows=-1&fields=iata`);
      expect(all.status).to.equal(200);
      expect(all.body.records).to.have.length(await count('airports'));
      expect(all.body.parameters.rows).to.equal(10_000);
      const late = await suite.server.json(`${SEARCH}?dataset=movies&rows=-1&start=9990`);
      expect(late.body.parameters.rows).to.equal(10);
      const datasets = await suite.server.json('/api/datasets/1.0/search/?rows=-1');
      expect(datasets.body.datasets).to.have.length(datasets.body.nhits);
    });

    it('rows=-2 is still a 400 naming rows', async () => {
      const { status, body } = await suite.server.json(`${SEARCH}?dataset=airports&rows=-2`);
      expect(status).to.equal(400);
      expect(body.error).to.match(/rows/);
    });
  });

  describe('the dataset search', () => {
    const metas = `read_json_auto('${SAMPLE_PORTAL}/datasets/*/dataset.json')`;
    it('the v1 documentation example: (title:x OR description:x) AND records_count >= n', async () => {
      const q = '(title:weather OR description:weather) AND records_count >= 1000';
      const { status, body } = await suite.server.json(
        `/api/datasets/1.0/search/?q=${encodeURIComponent(q)}`,
      );
      expect(status).to.equal(200);
      const expected = await count(`${metas} WHERE (metas."default".title ILIKE '%weather%'
        OR metas."default".description ILIKE '%weather%') AND computed.records_count >= 1000`);
      expect(expected).to.be.greaterThan(0);
      expect(body.nhits).to.equal(expected);
    });

    it('dates and #now() on modified', async () => {
      const { body } = await suite.server.json(
        `/api/datasets/1.0/search/?q=${encodeURIComponent('modified<=#now() AND modified>2000/01')}`,
      );
      expect(body.nhits).to.equal(await count(metas));
    });
  });
});
