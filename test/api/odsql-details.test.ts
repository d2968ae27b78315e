// ODSQL details seen in real answers and client code (issue 40 item 4), each answer checked
// against DuckDB over the same Parquet: arithmetic in group_by as the official JS client's README
// writes it; range() labels as the service writes them (inclusive integer bounds on an integer
// field, `low-high` on a double); date_format() with the service's Java-style letters in the
// request's lang.
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

  describe('date_format() with Java-style letters', () => {
    it('names months and days in the requested lang, on the requested time zone', async () => {
      const pattern = 'EEE d MMM yyyy, hh:mm a';
      const query = (lang: string) =>
        new URLSearchParams({
          select: `date_format(date, '${pattern}') as f, date`,
          where: "origin = 'SFO' and destination = 'LAX'",
          order_by: 'date',
          limit: '5',
          lang,
          timezone: 'UTC',
        }).toString();
      const english = await results('flights', query('en'));
      const want = await reference(
        `SELECT strftime(timezone('UTC', date), '%a %-d %b %Y, %I:%M %p') AS f FROM flights
         WHERE origin = 'SFO' AND destination = 'LAX' ORDER BY date LIMIT 5`,
      );
      expect(english.map((r) => r.f)).to.deep.equal(want.map((r) => r.f));
      const french = await results('flights', query('fr'));
      expect(french[0]!.f).to.match(/^(lun|mar|mer|jeu|ven|sam|dim)\. \d+ \S+ 2001, \d\d:\d\d (AM|PM)$/);
    });

    it('groups on a month name as a chart client does, counts as DuckDB', async () => {
      const got = await results(
        'seattle-weather',
        `select=count(*)%20as%20n&group_by=date_format(date,%22MMMM%22)%20as%20m&order_by=m&lang=en&limit=20`,
      );
      const want = await reference(
        `SELECT strftime(date, '%B') AS m, count(*)::INTEGER AS n FROM "seattle-weather" GROUP BY m ORDER BY m`,
      );
      expect(got).to.deep.equal(want);
    });

    it('answers a clean 400 naming an unknown letter, a time zone name or a huge repeat', async () => {
      const cases: [string, RegExp][] = [
        ['yyyy-QQ', /Unknown date format symbol: QQ/],
        ['HH:mm zzz', /zzz \(a time zone name\) is not supported/],
        ['y'.repeat(5000), /repeated 5000 times: at most 9/],
      ];
      for (const [pattern, message] of cases) {
        const query = new URLSearchParams({ select: `date_format(date, '${pattern}')` }).toString();
        const { status, body } = await suite.server.json(`${V21}/flights/records?${query}`);
        expect(status, pattern.slice(0, 20)).to.equal(400);
        expect(body.error_code).to.equal('QueryLangError');
        expect(body.message)
          .to.match(message)
          .and.match(/select/);
      }
    });
  });
});
