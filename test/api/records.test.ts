// The v2.1 record query and single record on the sample portal; every figure is checked against
// the same question asked of the Parquet files through a separate, plain DuckDB.
import { expect } from 'chai';
import { useSampleSuite } from '../helpers/sample-portal.js';

const V21 = '/api/explore/v2.1';

describe('v2.1 records (sample portal)', () => {
  const suite = useSampleSuite();

  const records = async (dataset: string, params: Record<string, string>) => {
    const query = new URLSearchParams(params).toString();
    return suite.server.json(`${V21}/catalog/datasets/${dataset}/records${query ? `?${query}` : ''}`);
  };

  describe('paging (supplement 4)', () => {
    it('answers 10 records and the total count by default', async () => {
      const { status, body } = await records('flights', {});
      expect(status).to.equal(200);
      expect(Object.keys(body)).to.deep.equal(['total_count', 'results']);
      expect(body.total_count).to.equal(3_000_000);
      expect(body.results).to.have.length(10);
    });

    it('answers only the count with limit=0, and 100 records with limit=-1', async () => {
      expect((await records('seattle-weather', { limit: '0' })).body).to.deep.equal({
        total_count: 1461,
        results: [],
      });
      expect((await records('seattle-weather', { limit: '-1' })).body.results).to.have.length(100);
    });

    it('pages in a stable order: offset 10 continues where offset 0 stopped', async () => {
      const order = { order_by: 'weather', select: 'date' };
      const first = await records('seattle-weather', { ...order, limit: '20' });
      const second = await records('seattle-weather', { ...order, limit: '10', offset: '10' });
      expect(second.body.results).to.deep.equal(first.body.results.slice(10));
    });

    it('keeps records that sort alike in storage order, as without order_by', async () => {
      const sunny = { where: "weather = 'sun'", select: 'date', limit: '50' };
      const stored = await records('seattle-weather', sunny);
      const sorted = await records('seattle-weather', { ...sunny, order_by: 'weather desc' });
      expect(stored.body.results).to.have.length(50);
      expect(sorted.body.results).to.deep.equal(stored.body.results);
    });

    it('refuses a limit above 100, or a page past the first 10,000 records', async () => {
      const over = await records('flights', { limit: '101' });
      expect(over.status).to.equal(400);
      expect(over.body).to.deep.equal({
        error_code: 'InvalidRESTParameterError',
        message: 'Invalid value for limit API parameter: 101 was found but -1 <= limit <= 100 is expected.',
      });
      const far = await records('flights', { offset: '9991' });
      expect(far.status).to.equal(400);
      expect(far.body.error_code).to.equal('InvalidRESTParameterError');
      expect(far.body.message).to.match(/^Invalid value for offset API parameter: 9991 .*10000/);
      expect((await records('flights', { offset: '9990' })).body.results).to.have.length(10);
    });

    it('names the limit bound that applies: 100 without group_by, 20,000 with it', async () => {
      const message = (value: string, max: number) =>
        `Invalid value for limit API parameter: ${value} was found but -1 <= limit <= ${max} is expected.`;
      for (const value of ['101', '20000', '30000']) {
        const { status, body } = await records('flights', { limit: value });
        expect(status, value).to.equal(400);
        expect(body.message, value).to.equal(message(value, 100));
      }
      const grouped = await records('flights', { group_by: 'origin', limit: '30000' });
      expect(grouped.status).to.equal(400);
      expect(grouped.body.message).to.equal(message('30000', 20000));
      const catalog = await suite.server.json(`${V21}/catalog/datasets?limit=30000`);
      expect(catalog.body.message).to.equal(message('30000', 100));
    });

    it('reads limit=-1 as the largest page the window allows', async () => {
      expect((await records('flights', { limit: '-1', offset: '9950' })).body.results).to.have.length(50);
      const [origins] = await suite.reference.rows(
        'SELECT count(DISTINCT origin)::INTEGER AS n FROM flights',
      );
      const grouped = await records('flights', { group_by: 'origin', limit: '-1' });
      expect(grouped.body.results).to.have.length(origins!.n as number);
      expect(origins!.n).to.be.greaterThan(100);
    });

    it('allows 20,000 groups with group_by, not one more', async () => {
      const ok = await records('flights', { group_by: 'origin, destination', limit: '20000' });
      const expected = await suite.reference.rows(
        'SELECT count(*)::INTEGER AS n FROM (SELECT DISTINCT origin, destination FROM flights)',
      );
      expect(ok.status).to.equal(200);
      expect(ok.body.total_count).to.equal(expected[0]!.n);
      expect(ok.body.results).to.have.length(Math.min(20000, expected[0]!.n as number));
      expect((await records('flights', { group_by: 'origin', limit: '20001' })).status).to.equal(400);
      expect((await records('flights', { group_by: 'origin', offset: '19999', limit: '2' })).status).to.equal(
        400,
      );
    });
  });

  describe('values (supplement 2)', () => {
    it('writes a geo point as {lon, lat} and a shape as a GeoJSON Feature', async () => {
      const { body } = await records('earthquakes', {
        select: 'id, geo_point_2d, geo_shape',
        where: "id = 'ci37868143'",
      });
      const [expected] = await suite.reference.rows(
        "SELECT geo_point_2d.lon AS lon, geo_point_2d.lat AS lat FROM earthquakes WHERE id = 'ci37868143'",
      );
      const [quake] = body.results;
      expect(quake.geo_point_2d).to.deep.equal({ lon: expected!.lon, lat: expected!.lat });
      expect(quake.geo_shape.type).to.equal('Feature');
      expect(quake.geo_shape.properties).to.deep.equal({});
      expect(quake.geo_shape.geometry.type).to.equal('Point');
      expect(quake.geo_shape.geometry.coordinates.slice(0, 2)).to.deep.equal([expected!.lon, expected!.lat]);
    });

    it('writes dates as YYYY-MM-DD and datetimes with the offset of the timezone parameter', async () => {
      const day = await records('seattle-weather', { select: 'date', limit: '1' });
      expect(day.body.results[0]).to.deep.equal({ date: '2012-01-01' });
      const utc = await records('flights', { select: 'date', order_by: 'date', limit: '1' });
      expect(utc.body.results[0].date).to.equal('2001-01-01T00:01:00+00:00');
      const winter = await records('flights', {
        select: 'date',
        order_by: 'date',
        limit: '1',
        timezone: 'Europe/Paris',
      });
      expect(winter.body.results[0].date).to.equal('2001-01-01T01:01:00+01:00');
      const summer = await records('flights', {
        select: 'date',
        where: "date >= '2001-07-01T00:00:00Z'",
        order_by: 'date',
        limit: '1',
        timezone: 'America/New_York',
      });
      expect(summer.body.results[0].date).to.match(/^2001-06-30T2\d:\d\d:00-04:00$/);
    });

    it('writes a multivalued field as an array, a missing value as null', async () => {
      const { body } = await records('movies', {
        select: 'title, major_genre, us_dvd_sales',
        where: "title = 'First Love, Last Rites'",
      });
      expect(body.results).to.deep.equal([
        { title: 'First Love, Last Rites', major_genre: ['Drama'], us_dvd_sales: null },
      ]);
    });
  });

  describe('filters and sorting', () => {
    it('counts what a where clause keeps exactly as DuckDB does', async () => {
      const { body } = await records('flights', {
        where: "origin = 'SFO' AND delay > 60 AND date >= date'2001-03'",
        limit: '0',
      });
      const [expected] = await suite.reference.rows(
        "SELECT count(*)::INTEGER AS n FROM flights WHERE origin = 'SFO' AND delay > 60 AND date >= TIMESTAMPTZ '2001-03-01 00:00:00+00'",
      );
      expect(body.total_count).to.equal(expected!.n);
    });

    it('reads date literals in the request timezone', async () => {
      const paris = await records('flights', {
        where: "date < date'2001-01-01T06:00:00'",
        timezone: 'Europe/Paris',
        limit: '0',
      });
      const [expected] = await suite.reference.rows(
        "SELECT count(*)::INTEGER AS n FROM flights WHERE date < TIMESTAMPTZ '2001-01-01 05:00:00+00'",
      );
      expect(paris.body.total_count).to.equal(expected!.n);
    });

    it('matches any element of a multivalued field', async () => {
      const { body } = await records('movies', { where: "major_genre = 'Comedy'", limit: '0' });
      const [expected] = await suite.reference.rows(
        "SELECT count(*)::INTEGER AS n FROM movies WHERE list_contains(major_genre, 'Comedy')",
      );
      expect(body.total_count).to.equal(expected!.n);
    });

    it('sorts nulls last in both directions', async () => {
      for (const direction of ['ASC', 'DESC']) {
        const { body } = await records('movies', {
          select: 'us_dvd_sales',
          order_by: `us_dvd_sales ${direction}`,
          offset: '3000',
          limit: '100',
        });
        const values = body.results.map((r: any) => r.us_dvd_sales);
        expect(values.at(-1), direction).to.equal(null);
        const firstNull = values.indexOf(null);
        expect(values.slice(firstNull).every((v: unknown) => v === null)).to.equal(true);
      }
      const top = await records('movies', { select: 'us_dvd_sales', order_by: '-us_dvd_sales', limit: '1' });
      const [max] = await suite.reference.rows('SELECT max(us_dvd_sales)::BIGINT AS m FROM movies');
      expect(top.body.results[0].us_dvd_sales).to.equal(Number(max!.m));
    });

    it('finds records with search() across text fields', async () => {
      const { body } = await records('airports', {
        where: 'search(*, "san francisco int")',
        select: 'iata',
      });
      expect(body.results.map((r: any) => r.iata)).to.include('SFO');
    });
  });

  describe('group_by (aggregated rows)', () => {
    it('keys each row by label, or by the expression as written', async () => {
      const { body } = await records('seattle-weather', {
        select: 'weather, count(*), avg(temp_max) as mean_max',
        group_by: 'weather',
        order_by: 'count(*) desc',
      });
      const expected = await suite.reference.rows(
        'SELECT weather, count(*)::INTEGER AS n, avg(temp_max) AS mean_max FROM "seattle-weather" GROUP BY weather ORDER BY n DESC',
      );
      expect(body.total_count).to.equal(expected.length);
      expect(body.results).to.have.length(expected.length);
      body.results.forEach((row: any, i: number) => {
        expect(Object.keys(row)).to.deep.equal(['weather', 'count(*)', 'mean_max']);
        expect(row.weather).to.equal(expected[i]!.weather);
        expect(row['count(*)']).to.equal(expected[i]!.n);
        expect(row.mean_max).to.be.closeTo(expected[i]!.mean_max as number, 1e-9);
      });
    });

    it('aggregates 3M flights like DuckDB: avg, median, percentile, exact count distinct', async () => {
      const { body } = await records('flights', {
        select:
          'origin, avg(delay) as mean, median(delay) as med, percentile(delay, 90) as p90, count(distinct destination) as routes',
        group_by: 'origin',
        order_by: 'count(*) desc',
        limit: '5',
      });
      const expected = await suite.reference.rows(
        `SELECT origin, avg(delay) AS mean, median(delay)::DOUBLE AS med, quantile_cont(delay, 0.9) AS p90,
                count(DISTINCT destination)::INTEGER AS routes
         FROM flights GROUP BY origin ORDER BY count(*) DESC, origin LIMIT 5`,
      );
      expect(body.results.map((r: any) => r.origin)).to.deep.equal(expected.map((r) => r.origin));
      body.results.forEach((row: any, i: number) => {
        expect(row.mean).to.be.closeTo(expected[i]!.mean as number, 1e-9);
        expect(row.med).to.be.closeTo(expected[i]!.med as number, 1e-9);
        expect(row.p90).to.be.closeTo(expected[i]!.p90 as number, 1e-9);
        expect(row.routes).to.equal(expected[i]!.routes);
      });
    });

    it('groups by month in the request timezone', async () => {
      const { body } = await records('flights', {
        select: 'month(date) as m, count(*) as n',
        group_by: 'month(date) as m',
        order_by: 'm',
        timezone: 'Asia/Tokyo',
      });
      const expected = await suite.reference.rows(
        `SELECT month(timezone('Asia/Tokyo', date))::INTEGER AS m, count(*)::INTEGER AS n
         FROM flights GROUP BY m ORDER BY m`,
      );
      expect(body.results).to.deep.equal(expected);
    });

    it('puts null in a group of its own', async () => {
      const { body } = await records('movies', {
        select: 'mpaa_rating, count(*) as n',
        group_by: 'mpaa_rating',
        order_by: 'mpaa_rating',
      });
      const expected = await suite.reference.rows(
        'SELECT mpaa_rating, count(*)::INTEGER AS n FROM movies GROUP BY mpaa_rating ORDER BY mpaa_rating NULLS LAST',
      );
      expect(body.results).to.deep.equal(expected);
      expect(body.results.at(-1).mpaa_rating).to.equal(null);
    });

    it('counts equal-width ranges', async () => {
      const { body } = await records('flights', {
        select: 'range(distance, 500) as band, count(*) as n',
        group_by: 'range(distance, 500) as band',
        order_by: 'band',
      });
      const expected = await suite.reference.rows(
        'SELECT (floor(distance / 500) * 500)::INTEGER AS low, count(*)::INTEGER AS n FROM flights GROUP BY low ORDER BY low',
      );
      expect(body.results.map((r: any) => r.n)).to.deep.equal(expected.map((r) => r.n));
    });
  });

  describe('links', () => {
    it('adds response links, and a self link to each record, only with include_links', async () => {
      const { body } = await records('airports', {
        include_links: 'true',
        limit: '1',
        where: "iata = 'SFO'",
      });
      expect(body.links.map((l: any) => l.rel)).to.deep.equal(['self', 'dataset']);
      const [sfo] = body.results;
      expect(sfo._links).to.deep.equal([
        { rel: 'self', href: `${suite.server.base}${V21}/catalog/datasets/airports/records/SFO` },
      ]);
      expect((await records('airports', { limit: '1' })).body.results[0]).to.not.have.property('_links');
    });
  });

  describe('GET /catalog/datasets/{id}/records/{record_id}', () => {
    it('answers the bare flat record, with select and timezone', async () => {
      const { status, body } = await suite.server.json(`${V21}/catalog/datasets/airports/records/SFO`);
      expect(status).to.equal(200);
      expect(body.iata).to.equal('SFO');
      expect(body.city).to.equal('San Francisco');
      expect(body.geo_point_2d).to.have.keys(['lon', 'lat']);
      const selected = await suite.server.json(
        `${V21}/catalog/datasets/airports/records/SFO?select=lower(city) as c`,
      );
      expect(selected.body).to.deep.equal({ c: 'san francisco' });
    });

    it('answers 404 NotFoundResource for an unknown record or dataset', async () => {
      const record = await suite.server.json(`${V21}/catalog/datasets/airports/records/NOPE'--`);
      expect(record.status).to.equal(404);
      expect(record.body).to.deep.equal({
        error_code: 'NotFoundResource',
        message: "The requested record NOPE'-- does not exist.",
      });
      const dataset = await suite.server.json(`${V21}/catalog/datasets/nope/records/SFO`);
      expect(dataset.status).to.equal(404);
      expect(dataset.body.error_code).to.equal('NotFoundResource');
    });
  });

  describe('errors (QueryLangError)', () => {
    const cases: [string, Record<string, string>, RegExp][] = [
      [
        'a syntax error, with its position',
        { where: 'delay >> 3' },
        /position \d+ .*Clause\(s\) containing the error\(s\): where\.$/,
      ],
      [
        'an unknown field',
        { select: 'nope' },
        /^Unknown field: nope\. Clause\(s\) containing the error\(s\): select\.$/,
      ],
      ['an unknown function, with a hint', { select: 'avrg(delay)' }, /avrg.*avg.*select\.$/],
      [
        'a field that is neither grouped nor aggregated',
        { select: 'delay', group_by: 'origin' },
        /delay.*select/,
      ],
      ['a wrong type', { where: "delay > 'abc'" }, /where\.$/],
      [
        'an over-limit query',
        { where: `delay IN (${Array.from({ length: 1001 }, (_, i) => i).join(',')})` },
        /where\.$/,
      ],
    ];
    for (const [name, params, message] of cases) {
      it(`answers 400 for ${name}`, async () => {
        const { status, body } = await records('flights', params);
        expect(status).to.equal(400);
        expect(body.error_code).to.equal('QueryLangError');
        expect(body.message).to.match(message);
        expect(body.message).to.not.match(/Binder|Parser Error|Catalog Error|duckdb/i);
      });
    }
  });
});
