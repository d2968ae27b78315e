// ODSQL details seen in real answers and client code (issue 40 item 4), each answer checked
// against DuckDB over the same Parquet: arithmetic in group_by as the official JS client's README
// writes it; range() labels as the service writes them (inclusive integer bounds on an integer
// field, `low-high` on a double).
import { expect } from 'chai';
import { useSampleSuite } from '../helpers/sample-portal.js';

const V21 = '/api/explore/v2.1/catalog/datasets';

describe('ODSQL details of real answers (sample portal)', () => {
  const suite = useSampleSuite();

  /** The results of a records query written as a raw query string, as a client sends it. */
  const results = async (dataset: string, query: string) => {
    const { status, body } = await suite.server.json(`${V21}/${dataset}/records?${query}`);
    expect(status, JSON.stringify(body)).to.equal(200);
    return body.results as Record<string, unknown>[];
  };
  const reference = (sql: string) => suite.reference.rows(sql);

  describe('arithmetic in group_by', () => {
    it('groups on `a`+`b` as the JS client encodes it (URLSearchParams)', async () => {
      // The README's groupBy(`${field("day")} , ${field("a")}+${field("b")}`), on flights.
      const query = new URLSearchParams({
        select: 'count(*)',
        group_by: '`origin` , `delay`+`distance`',
        where: "origin = 'LAX'",
        order_by: 'count(*) desc, `delay`+`distance`',
        limit: '5',
      }).toString();
      expect(query).to.contain('%2B');
      const got = await results('flights', query);
      const want = await reference(
        `SELECT origin, CAST(delay + distance AS DOUBLE) AS d, count(*)::INTEGER AS n FROM flights
         WHERE origin = 'LAX' GROUP BY origin, d ORDER BY n DESC, d LIMIT 5`,
      );
      expect(got).to.deep.equal(
        want.map((r) => ({ origin: r.origin, '`delay`+`distance`': r.d, 'count(*)': r.n })),
      );
    });

    it('selects, labels and sorts on the grouped expression consistently', async () => {
      const got = await results(
        'movies',
        'select=g,avg(imdb_rating)%20as%20r&group_by=running_time_min%20/%2030%20as%20g&where=running_time_min%20is%20not%20null&order_by=g%20desc&limit=3',
      );
      const want = await reference(
        `SELECT running_time_min / 30 AS g, avg(imdb_rating) AS r FROM movies
         WHERE running_time_min IS NOT NULL GROUP BY g ORDER BY g DESC LIMIT 3`,
      );
      expect(got.map((r) => r.g)).to.deep.equal(want.map((r) => r.g));
      got.forEach((r, i) => expect(r.r).to.be.closeTo(Number(want[i]!.r), 1e-9));
    });

    it('refuses an aggregation or a grouping function as an operand with a clean 400', async () => {
      for (const groupBy of ['count(*)+1', 'range(delay, 10)+1']) {
        const query = new URLSearchParams({ select: 'count(*)', group_by: groupBy }).toString();
        const { status, body } = await suite.server.json(`${V21}/flights/records?${query}`);
        expect(status, groupBy).to.equal(400);
        expect(body.error_code).to.equal('QueryLangError');
        expect(body.message).to.match(/group_by/);
      }
    });
  });

  describe('range() labels', () => {
    it('labels equal widths over an integer field with inclusive bounds, as a captured answer does', async () => {
      // The captured request: RANGE(capacity,15) on an integer field gave [0, 14], [15, 29]...
      const got = await results('movies', 'select=count(*)&group_by=RANGE(running_time_min,15)&limit=100');
      const want = await reference(
        `SELECT '[' || (floor(running_time_min / 15) * 15)::BIGINT || ', ' || (floor(running_time_min / 15) * 15 + 14)::BIGINT || ']' AS k,
           count(*)::INTEGER AS n FROM movies GROUP BY floor(running_time_min / 15) ORDER BY floor(running_time_min / 15) NULLS LAST`,
      );
      expect(got.map((r) => [r['RANGE(running_time_min,15)'], r['count(*)']])).to.deep.equal(
        want.map((r) => [r.k, r.n]),
      );
      expect(got.map((r) => r['RANGE(running_time_min,15)'])).to.include.members(['[90, 104]', '[105, 119]']);
    });

    it('labels static bounds over an integer field [*, 14] ... [40, *]', async () => {
      const groupBy = 'RANGE(running_time_min,*,15,20,25,30,35,40,*)';
      const got = await results('movies', `select=count(*)&group_by=${encodeURIComponent(groupBy)}`);
      const want = await reference(
        `SELECT CASE WHEN running_time_min < 15 THEN '[*, 14]' WHEN running_time_min >= 40 THEN '[40, *]'
           ELSE '[' || (floor(running_time_min / 5) * 5)::BIGINT || ', ' || (floor(running_time_min / 5) * 5 + 4)::BIGINT || ']' END AS k,
           count(*)::INTEGER AS n FROM movies GROUP BY k ORDER BY min(running_time_min) NULLS LAST`,
      );
      expect(got.map((r) => [r[groupBy], r['count(*)']])).to.deep.equal(want.map((r) => [r.k, r.n]));
      expect(got.at(-2)![groupBy]).to.equal('[40, *]');
    });

    it('keeps the documented low-high over a double field and with a fractional width', async () => {
      const got = await results('movies', 'select=count(*)&group_by=range(imdb_rating, 2.5)&limit=100');
      const want = await reference(
        `SELECT floor(imdb_rating / 2.5) * 2.5 AS low, count(*)::INTEGER AS n FROM movies
         GROUP BY low ORDER BY low NULLS LAST`,
      );
      const label = (low: unknown) =>
        low === null ? null : `${String(Number(low))}-${String(Number(low) + 2.5)}`;
      expect(got.map((r) => [r['range(imdb_rating, 2.5)'], r['count(*)']])).to.deep.equal(
        want.map((r) => [label(r.low), r.n]),
      );
      const [half] = await results('movies', 'select=count(*)&group_by=range(running_time_min,*,90.5,*)');
      expect(half!['range(running_time_min,*,90.5,*)']).to.equal('*-90.5');
    });
  });
});
