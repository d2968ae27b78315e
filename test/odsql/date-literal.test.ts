// Date literals executed in DuckDB: every form, in UTC, Paris and New York on both sides of a DST change; granules; errors.
import { expect } from 'chai';
import { QueryLangError } from '../../src/odsql/errors.js';
import { dateLiteralSql } from '../../src/odsql/dialect/duckdb/date.js';
import { parseDateLiteral } from '../../src/odsql/functions/date.js';
import { openDateDb, rowsOf, type DateDb } from './date-db.js';

/** A literal read, with DuckDB's SQL of its granule [start, end) in `timezone`. */
function literalSql(text: string, timezone: string) {
  const literal = parseDateLiteral(text);
  return { ...literal, ...dateLiteralSql(literal.reading, timezone) };
}

describe('date literals', () => {
  let db: DateDb;
  before(async () => {
    db = await openDateDb();
  });
  after(() => db.close());

  /** The literal's granule [start, end) as DuckDB text, with its type and granularity. */
  async function granule(text: string, timezone = 'UTC') {
    const literal = literalSql(text, timezone);
    return {
      type: literal.type,
      granularity: literal.granularity,
      start: await db.text(literal.start),
      end: await db.text(literal.end),
    };
  }

  it('reads date forms as DATE granules of a year, a month or a day, whatever the time zone', async () => {
    const cases: [string, string, string, string][] = [
      ['2020', 'year', '2020-01-01', '2021-01-01'],
      ['2020-11', 'month', '2020-11-01', '2020-12-01'],
      ['2020-12', 'month', '2020-12-01', '2021-01-01'],
      ['2020/11', 'month', '2020-11-01', '2020-12-01'],
      ['2020-11-05', 'day', '2020-11-05', '2020-11-06'],
      ['2020/11/05', 'day', '2020-11-05', '2020-11-06'],
      ['2020-2-9', 'day', '2020-02-09', '2020-02-10'],
      ['2020-02-28', 'day', '2020-02-28', '2020-02-29'],
      ['2020-02-29', 'day', '2020-02-29', '2020-03-01'],
      ['2021-02-28', 'day', '2021-02-28', '2021-03-01'],
      ['2020-12-31', 'day', '2020-12-31', '2021-01-01'],
      ['9999-12-31', 'day', '9999-12-31', '10000-01-01'],
      [' 2020-04-30 ', 'day', '2020-04-30', '2020-05-01'],
    ];
    for (const timezone of ['UTC', 'Europe/Paris', 'America/New_York']) {
      for (const [text, granularity, start, end] of cases) {
        expect(await granule(text, timezone), `${text} in ${timezone}`).to.deep.equal({
          type: 'date',
          granularity,
          start,
          end,
        });
      }
    }
  });

  it('reads naive date-times on the wall clock of the request time zone, across DST changes', async () => {
    const cases: [string, string, string][] = [
      ['2020-11-05T10:00', 'UTC', '2020-11-05 10:00:00+00'],
      ['2020-11-05T10:00', 'Europe/Paris', '2020-11-05 09:00:00+00'],
      ['2020-11-05T10:00', 'America/New_York', '2020-11-05 15:00:00+00'],
      // Paris moved to summer time at 2021-03-28 02:00 (+01:00 -> +02:00).
      ['2021-03-27T03:30', 'Europe/Paris', '2021-03-27 02:30:00+00'],
      ['2021-03-28T03:30', 'Europe/Paris', '2021-03-28 01:30:00+00'],
      ['2021-03-28 01:30', 'Europe/Paris', '2021-03-28 00:30:00+00'],
      // ... and back to winter time at 2021-10-31 03:00 (+02:00 -> +01:00).
      ['2021-10-30T12:00', 'Europe/Paris', '2021-10-30 10:00:00+00'],
      ['2021-10-31T12:00', 'Europe/Paris', '2021-10-31 11:00:00+00'],
      // New York moved to summer time at 2021-03-14 02:00 (-05:00 -> -04:00).
      ['2021-03-13T12:00', 'America/New_York', '2021-03-13 17:00:00+00'],
      ['2021-03-14T12:00', 'America/New_York', '2021-03-14 16:00:00+00'],
      ['2021/03/14 12:00:00', 'America/New_York', '2021-03-14 16:00:00+00'],
    ];
    for (const [text, timezone, start] of cases) {
      const { type, start: actual } = await granule(text, timezone);
      expect({ type, start: actual }, `${text} in ${timezone}`).to.deep.equal({ type: 'datetime', start });
    }
  });

  it('reads Z and numeric offsets as absolute instants, whatever the time zone', async () => {
    const cases: [string, string][] = [
      ['2020-11-05T10:00Z', '2020-11-05 10:00:00+00'],
      ['2020-11-05T10:00:00Z', '2020-11-05 10:00:00+00'],
      ['2020-11-05t10:00:00z', '2020-11-05 10:00:00+00'],
      ['2020-11-05T10:00:00+02:00', '2020-11-05 08:00:00+00'],
      ['2020-11-05T10:00:00+0200', '2020-11-05 08:00:00+00'],
      ['2020-11-05T10:00+02', '2020-11-05 08:00:00+00'],
      ['2020-11-05 10:00:00-05:30', '2020-11-05 15:30:00+00'],
      ['2020-11-05T00:30:00+01:00', '2020-11-04 23:30:00+00'],
      ['2020-11-05T10:00:00.250+00:00', '2020-11-05 10:00:00.25+00'],
    ];
    for (const timezone of ['UTC', 'Europe/Paris', 'America/New_York']) {
      for (const [text, start] of cases) {
        expect((await granule(text, timezone)).start, `${text} in ${timezone}`).to.equal(start);
      }
    }
  });

  it('ends a date-time granule one unit of its last written component later', async () => {
    const cases: [string, string, string, string][] = [
      ['2020-11-05T10', 'hour', '2020-11-05 10:00:00+00', '2020-11-05 11:00:00+00'],
      ['2020-11-05T10:00', 'minute', '2020-11-05 10:00:00+00', '2020-11-05 10:01:00+00'],
      ['2020-11-05 10:00:59', 'second', '2020-11-05 10:00:59+00', '2020-11-05 10:01:00+00'],
      ['2020-11-05T10:00:00.5', 'millisecond', '2020-11-05 10:00:00.5+00', '2020-11-05 10:00:00.6+00'],
      ['2020-11-05T10:00:00,25', 'millisecond', '2020-11-05 10:00:00.25+00', '2020-11-05 10:00:00.26+00'],
      ['2020-11-05T10:00:00.123', 'millisecond', '2020-11-05 10:00:00.123+00', '2020-11-05 10:00:00.124+00'],
      [
        '2020-11-05T10:00:00.123456Z',
        'millisecond',
        '2020-11-05 10:00:00.123456+00',
        '2020-11-05 10:00:00.123457+00',
      ],
      ['2020-12-31T23:59:59Z', 'second', '2020-12-31 23:59:59+00', '2021-01-01 00:00:00+00'],
    ];
    for (const [text, granularity, start, end] of cases) {
      expect(await granule(text), text).to.deep.equal({ type: 'datetime', granularity, start, end });
    }
  });

  it('keeps an hour granule one real hour long on the night clocks go back', async () => {
    // 02:00 happens twice in Paris that night; the granule is the hour from the instant DuckDB picks.
    const literal = literalSql('2021-10-31T02', 'Europe/Paris');
    expect(await db.text(`epoch(${literal.end}) - epoch(${literal.start})`)).to.equal('3600.0');
    expect(['2021-10-31 00:00:00+00', '2021-10-31 01:00:00+00']).to.include(await db.text(literal.start));
  });

  it('gives granules that make the documented comparisons day-granular', async () => {
    // x > lit is x >= end, x <= lit is x < end, x = lit is start <= x < end, x < lit is x < start, x >= lit is x >= start.
    const literal = literalSql('2026-08-29', 'UTC');
    const days = ['2026-08-28', '2026-08-29', '2026-08-30'].map((d) => `DATE '${d}'`);
    const rows = rowsOf(days);
    const matching = async (test: string): Promise<(string | null)[]> =>
      (await db.texts(`CASE WHEN ${test} THEN x END`, rows)).filter((v) => v !== null);
    expect(await matching(`x >= ${literal.end}`)).to.deep.equal(['2026-08-30']);
    expect(await matching(`x < ${literal.end}`)).to.deep.equal(['2026-08-28', '2026-08-29']);
    expect(await matching(`x >= ${literal.start} AND x < ${literal.end}`)).to.deep.equal(['2026-08-29']);
    expect(await matching(`x < ${literal.start}`)).to.deep.equal(['2026-08-28']);
    expect(await matching(`x >= ${literal.start}`)).to.deep.equal(['2026-08-29', '2026-08-30']);
  });

  it('refuses malformed and impossible literals with the text in the message', () => {
    const invalid = [
      '',
      'nope',
      '20',
      '20201',
      '0000',
      '2020-13',
      '2020-00',
      '2020-13-45',
      '2021-02-29',
      '2020-04-31',
      '2020-11/05',
      '2020-11-05T24:00',
      '2020-11-05T10:60',
      '2020-11-05T10:00:60',
      '2020-11-05T10:00:00.1234567',
      '2020-11-05Z',
      '2020-11-05T10:00+25:00',
      '2020-11-05T10:00+02:75',
      '2020-11-05T10:00 Europe/Paris',
      "2020-11-05'; DROP TABLE x; --",
    ];
    for (const text of invalid) {
      expect(() => parseDateLiteral(text), text)
        .to.throw(QueryLangError)
        .with.property('message', `Invalid date literal: ${text}`);
    }
  });
});
