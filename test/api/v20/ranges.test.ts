// ODSQL ranges in every spelling a v2 client writes: `IN [a..b]`, `IN [a TO b]` and v2.0's
// `IN [a, b]`, each bracket facing in (inclusive) or out (exclusive), and the v2.0 documentation's
// `field: [a..b]`, on integers, doubles, dates and datetimes; answered by v2.0 and v2.1 records and
// v2.0 aggregates as DuckDB counts the same Parquet rows, with hostile spacing and URL encodings.
import { expect } from 'chai';
import { rawGet } from '../../helpers/raw-http.js';
import { useSampleSuite } from '../../helpers/sample-portal.js';

/** Each of the four bracket pairs: its spelling around the bounds, and the SQL of its two bounds. */
const BRACKETS = [
  { open: '[', close: ']', low: '>=', high: '<=' },
  { open: ']', close: '[', low: '>', high: '<' },
  { open: ']', close: ']', low: '>', high: '<=' },
  { open: '[', close: '[', low: '>=', high: '<' },
] as const;

/** One range to ask for: a dataset, a field, the ODSQL bounds and the SQL bounds DuckDB compares with. */
interface Range {
  readonly dataset: string;
  readonly field: string;
  readonly bounds: readonly [string, string];
  /** The SQL of `field` and of the bounds as DuckDB compares them (dates as whole days, in UTC). */
  readonly sql: { readonly field: string; readonly bounds: readonly [string, string] };
}

/** A range of numbers, whose bounds DuckDB reads as ODSQL writes them. */
const numbers = (dataset: string, field: string, low: string, high: string): Range => ({
  dataset,
  field,
  bounds: [low, high],
  sql: { field, bounds: [low, high] },
});

const RANGES: readonly Range[] = [
  numbers('movies', 'running_time_min', '90', '120'),
  numbers('movies', 'imdb_rating', '8', '8.5'),
  {
    dataset: 'movies',
    field: 'release_date',
    bounds: ["date'2000-01-01'", "date'2000-12-31'"],
    sql: { field: 'release_date', bounds: ["DATE '2000-01-01'", "DATE '2000-12-31'"] },
  },
  {
    // A datetime against date literals: each bound is its whole day (supplement 5).
    dataset: 'flights',
    field: 'date',
    bounds: ["date'2001-01-02'", "date'2001-01-04'"],
    sql: { field: "(date AT TIME ZONE 'UTC')::DATE", bounds: ["DATE '2001-01-02'", "DATE '2001-01-04'"] },
  },
];

describe('ODSQL ranges with a comma, .. or TO, brackets facing in or out (sample portal)', () => {
  const suite = useSampleSuite();
  const okBody = async (route: string) => {
    const answer = await rawGet(suite.server.base, route);
    const body = JSON.parse(answer.body.toString('utf8'));
    expect(answer.status, `${route}: ${answer.body.toString('utf8')}`).to.equal(200);
    return body;
  };
  const duckdb = async (range: Range, bracket: (typeof BRACKETS)[number]) => {
    const { field, bounds } = range.sql;
    const sql = `SELECT count(*)::INTEGER AS n FROM "${range.dataset}"
      WHERE ${field} ${bracket.low} ${bounds[0]} AND ${field} ${bracket.high} ${bounds[1]}`;
    return Number((await suite.reference.rows(sql))[0]!.n);
  };

  for (const range of RANGES) {
    it(`${range.dataset}.${range.field}: every bracket pair and separator, v2.0 and v2.1, as DuckDB counts`, async () => {
      for (const bracket of BRACKETS) {
        const expected = await duckdb(range, bracket);
        const [low, high] = range.bounds;
        for (const separator of [', ', ',', ' .. ', ' TO ']) {
          for (const operator of [' IN ', ': ']) {
            const where = `${range.field}${operator}${bracket.open}${low}${separator}${high}${bracket.close}`;
            const query = `where=${encodeURIComponent(where)}`;
            for (const prefix of ['/api/v2', '/api/explore/v2.0', '/api/explore/v2.1']) {
              const body = await okBody(
                `${prefix}/catalog/datasets/${range.dataset}/records?limit=0&${query}`,
              );
              expect(body.total_count, `${prefix} ${where}`).to.equal(expected);
            }
            const aggregated = await okBody(
              `/api/v2/catalog/datasets/${range.dataset}/aggregates?select=count(*)%20as%20n&${query}`,
            );
            expect(aggregated.aggregations, where).to.deep.equal([{ n: expected }]);
          }
        }
      }
    });
  }

  it('reads the comma form with hostile spacing and in every URL encoding clients send', async () => {
    const expected = await duckdb(RANGES[0]!, BRACKETS[2]);
    const records = '/api/v2/catalog/datasets/movies/records?limit=0&where=';
    for (const where of [
      'running_time_min IN ]90,120]',
      'running_time_min   in   ]   90   ,   120   ]',
      'running_time_min\tIN\n]\t90\n,\r\n120\t]',
      'running_time_min IN]90,120]',
      '(running_time_min IN ]90, 120])',
      'running_time_min IN ]90.0, 1.2e2]',
      'running_time_min:]90,120]',
    ]) {
      expect((await okBody(`${records}${encodeURIComponent(where)}`)).total_count, where).to.equal(expected);
    }
    for (const query of [
      'running_time_min+IN+]90,+120]',
      'running_time_min%20IN%20%5D90%2C%20120%5D',
      'running_time_min%20IN%20]90%2C120]',
      'running_time_min IN ]90, 120]'.replaceAll(' ', '%20'),
      'running_time_min%20in%20%5d90%2c120%5d',
    ]) {
      expect((await okBody(`${records}${query}`)).total_count, query).to.equal(expected);
    }
  });

  it('combines a comma range with the rest of the clause, and keeps it inside function arguments apart', async () => {
    const [row] = await suite.reference.rows(
      `SELECT count(*)::INTEGER AS n FROM movies WHERE (running_time_min >= 90 AND running_time_min < 120)
         AND (imdb_rating > 8 OR mpaa_rating = 'G')`,
    );
    const where = "running_time_min IN [90, 120[ AND (imdb_rating IN ]8, 10] OR mpaa_rating = 'G')";
    const body = await okBody(
      `/api/v2/catalog/datasets/movies/records?limit=0&where=${encodeURIComponent(where)}`,
    );
    expect(body.total_count).to.equal(row!.n);
    // range()'s bound list keeps its own meaning beside a comma range in where.
    const grouped = await okBody(
      `/api/v2/catalog/datasets/movies/aggregates?select=count(*)%20as%20n&group_by=${encodeURIComponent(
        'range(running_time_min, [90, 120])',
      )}&where=${encodeURIComponent('running_time_min IN [90, 120[')}`,
    );
    expect(grouped.aggregations.reduce((sum: number, g: { n: number }) => sum + g.n, 0)).to.equal(
      await duckdb(RANGES[0]!, BRACKETS[3]),
    );
  });

  it('answers a malformed range a 400 naming the where clause, in both generations', async () => {
    for (const where of [
      'running_time_min IN [90, 100, 120]',
      'running_time_min IN [90, ]',
      'running_time_min IN [, 120]',
      'running_time_min IN (90, 120]',
      'running_time_min IN [90 120]',
      "running_time_min IN [90, 'long']",
      "running_time_min IN [date'2000', 120]",
      'running_time_min IN [90, 120',
    ]) {
      for (const prefix of ['/api/v2', '/api/explore/v2.1']) {
        const answer = await rawGet(
          suite.server.base,
          `${prefix}/catalog/datasets/movies/records?where=${encodeURIComponent(where)}`,
        );
        const body = JSON.parse(answer.body.toString('utf8'));
        expect(answer.status, where).to.equal(400);
        expect(body.error_code, where).to.equal('QueryLangError');
        expect(body.message, where).to.match(/where/i);
      }
    }
  });
});
