// ODSQL forms a client of the spec writes on its first day (issue 30 item 8): number literals
// with exponents, upper(), and a space between a number and its unit; each answer is checked
// against DuckDB over the same Parquet.
import { expect } from 'chai';
import { useSampleSuite } from '../helpers/sample-portal.js';

const V21 = '/api/explore/v2.1/catalog/datasets';

describe('ODSQL literal forms and upper() (sample portal)', () => {
  const suite = useSampleSuite();

  const results = async (dataset: string, params: Record<string, string>) => {
    const query = new URLSearchParams(params).toString();
    const { status, body } = await suite.server.json(`${V21}/${dataset}/records?${query}`);
    expect(status, JSON.stringify(body)).to.equal(200);
    return body.results as Record<string, unknown>[];
  };
  const reference = (sql: string) => suite.reference.rows(sql);

  describe('number literals with exponents', () => {
    it('in select', async () => {
      const select = 'worldwide_gross / 1E6 as m, imdb_rating * 4.15e1 as x, 2e+2 as c';
      const got = await results('movies', { select, where: "title = 'Titanic'" });
      const [want] = await reference(
        `SELECT worldwide_gross / 1E6 AS m, imdb_rating * 4.15e1 AS x, 200 AS c FROM movies WHERE title = 'Titanic'`,
      );
      expect(got).to.have.length(1);
      expect(got[0]!.m).to.equal(Number(want!.m));
      expect(got[0]!.x).to.be.closeTo(Number(want!.x), 1e-9);
      expect(got[0]!.c).to.equal(200);
    });

    it('in where, small and signed exponents included', async () => {
      const [got] = await results('movies', {
        select: 'count(*) as n',
        where: 'worldwide_gross >= 2e+8 and imdb_rating > 7.5E0 and imdb_rating * 1E-3 < 8.5e-3',
      });
      const [want] = await reference(
        'SELECT count(*)::INTEGER AS n FROM movies WHERE worldwide_gross >= 2e8 AND imdb_rating > 7.5 AND imdb_rating < 8.5',
      );
      expect(want!.n).to.be.within(10, 200);
      expect(got!.n).to.equal(want!.n);
    });

    it('in group_by', async () => {
      const got = await results('movies', {
        select: 'count(*) as n',
        group_by: 'range(worldwide_gross, *, 1e8, 1E9, *) as g',
      });
      const want = await reference(
        `SELECT CASE WHEN worldwide_gross < 1e8 THEN '[*, 99999999]' WHEN worldwide_gross < 1e9
           THEN '[100000000, 999999999]' WHEN worldwide_gross >= 1e9 THEN '[1000000000, *]' END AS g,
           count(*)::INTEGER AS n FROM movies GROUP BY g ORDER BY min(worldwide_gross) NULLS LAST`,
      );
      expect(got).to.deep.equal(want);
    });

    it('in order_by', async () => {
      const got = await results('movies', {
        select: 'title',
        where: 'worldwide_gross is not null and running_time_min is not null',
        order_by: 'worldwide_gross - 1.5e6 * running_time_min desc',
        limit: '5',
      });
      const want = await reference(
        `SELECT title FROM movies WHERE worldwide_gross IS NOT NULL AND running_time_min IS NOT NULL
         ORDER BY worldwide_gross - 1.5e6 * running_time_min DESC LIMIT 5`,
      );
      expect(got).to.deep.equal(want);
    });

    it('too large for a double is a 400, not infinity', async () => {
      const { status, body } = await suite.server.json(`${V21}/movies/records?select=1e999%20as%20x`);
      expect(status).to.equal(400);
      expect(body.message).to.match(/Number out of range/);
    });
  });

  describe('upper()', () => {
    it('in select, where, group_by and order_by, as DuckDB upper()', async () => {
      const got = await results('movies', {
        select: 'upper(title) as u',
        where: "upper(distributor) = 'WARNER BROS.'",
        order_by: 'upper(title) desc',
        limit: '5',
      });
      const want = await reference(
        `SELECT upper(title) AS u FROM movies WHERE upper(distributor) = 'WARNER BROS.'
         ORDER BY upper(title) DESC NULLS LAST LIMIT 5`,
      );
      expect(want).to.have.length(5);
      expect(got).to.deep.equal(want);
      const groups = await results('movies', {
        select: 'upper(mpaa_rating) as r, count(*) as n',
        group_by: 'upper(mpaa_rating) as r',
      });
      expect(groups).to.deep.equal(
        await reference(
          'SELECT upper(mpaa_rating) AS r, count(*)::INTEGER AS n FROM movies GROUP BY r ORDER BY r NULLS LAST',
        ),
      );
    });
  });

  describe('a space before a unit ("spaces are optional")', () => {
    it('within_distance(geo, geom, 50 km) is 50km', async () => {
      const where = (distance: string) =>
        `within_distance(geo_point_2d, geom'POINT(-122.37 37.62)', ${distance})`;
      const [spaced] = await results('airports', { select: 'count(*) as n', where: where('50 km') });
      const [joined] = await results('airports', { select: 'count(*) as n', where: where('50km') });
      expect(spaced!.n).to.equal(joined!.n);
      expect(spaced!.n).to.be.within(2, 50);
    });

    it('range(date, 1 month) and 1 M group by month', async () => {
      const want = await reference(
        `SELECT strftime(date_trunc('month', date), '%Y-%m-%d') AS m, count(*)::INTEGER AS n
         FROM "seattle-weather" GROUP BY m ORDER BY m`,
      );
      expect(want).to.have.length(48);
      for (const width of ['1 month', '1 M', '1month']) {
        const got = await results('seattle-weather', {
          select: 'count(*) as n',
          group_by: `range(date, ${width}) as m`,
          limit: '100',
        });
        expect(got, width).to.deep.equal(want);
      }
    });

    it('now() takes spaces around its named parameters', async () => {
      const [got] = await results('seattle-weather', {
        select: 'count(*) as n',
        where: 'date >= now( years = -12, days=-1, hour = 0, minute = 0, second = 0, microsecond = 0 )',
      });
      const [want] = await reference(
        `SELECT count(*)::INTEGER AS n FROM "seattle-weather"
         WHERE date >= current_date - INTERVAL 12 YEAR - INTERVAL 1 DAY`,
      );
      expect(got!.n).to.equal(want!.n);
    });

    it('a word that is not a unit after a number is a 400', async () => {
      const query = new URLSearchParams({ where: 'imdb_rating > 7 title' }).toString();
      const { status, body } = await suite.server.json(`${V21}/movies/records?${query}`);
      expect(status).to.equal(400);
      expect(body.error_code).to.equal('QueryLangError');
    });
  });
});
