// range(<date field>, <n><unit>) buckets executed in DuckDB: every unit spelling, both types, time zones, DST nights, errors.
import { expect } from 'chai';
import { QueryLangError } from '../../src/odsql/errors.js';
import { compileDateRangeWidth } from '../../src/odsql/dialect/duckdb/date-buckets.js';
import type { DateLikeType } from '../../src/odsql/functions/date.js';
import { openDateDb, rowsOf, type DateDb } from './date-db.js';

// Wednesday 2021-05-19 13:47:25.678912 UTC.
const INSTANT = "TIMESTAMPTZ '2021-05-19 13:47:25.678912+00'";

/** Expected bucket start in UTC for one unit of every unit kind, with every spelling of the unit. */
const SPELLINGS: [string[], string][] = [
  [['ms', 'millisecond', 'milliseconds'], '2021-05-19 13:47:25.678+00'],
  [['s', 'second', 'seconds'], '2021-05-19 13:47:25+00'],
  [['m', 'minute', 'minutes'], '2021-05-19 13:47:00+00'],
  [['h', 'hour', 'hours'], '2021-05-19 13:00:00+00'],
  [['d', 'day', 'days'], '2021-05-19 00:00:00+00'],
  [['w', 'week', 'weeks'], '2021-05-17 00:00:00+00'],
  [['M', 'month', 'months'], '2021-05-01 00:00:00+00'],
  [['q', 'quarter', 'quarters'], '2021-04-01 00:00:00+00'],
  [['y', 'year', 'years'], '2021-01-01 00:00:00+00'],
];

describe('range() with a date width', () => {
  let db: DateDb;
  before(async () => {
    db = await openDateDb();
  });
  after(() => db.close());

  const bucket = (sql: string, n: number, unit: string, timezone = 'UTC', type: DateLikeType = 'datetime') =>
    db.text(compileDateRangeWidth(sql, n, unit, type, timezone).output);

  it('buckets a datetime by one unit of every kind, under every spelling', async () => {
    for (const [spellings, start] of SPELLINGS) {
      for (const unit of spellings) expect(await bucket(INSTANT, 1, unit), unit).to.equal(start);
    }
  });

  it('buckets a datetime by several sub-day units or days', async () => {
    expect(await bucket(INSTANT, 250, 'ms')).to.equal('2021-05-19 13:47:25.5+00');
    expect(await bucket(INSTANT, 10, 's')).to.equal('2021-05-19 13:47:20+00');
    expect(await bucket(INSTANT, 15, 'm')).to.equal('2021-05-19 13:45:00+00');
    expect(await bucket(INSTANT, 6, 'hours')).to.equal('2021-05-19 12:00:00+00');
    // Buckets of several days count from DuckDB's origin, Monday 2000-01-03.
    const days = (Date.UTC(2021, 4, 19) - Date.UTC(2000, 0, 3)) / 86_400_000;
    const start = new Date(Date.UTC(2021, 4, 19 - (days % 3))).toISOString().slice(0, 10);
    expect(await bucket(INSTANT, 3, 'd')).to.equal(`${start} 00:00:00+00`);
    expect(await bucket(INSTANT, 7, 'days')).to.equal('2021-05-17 00:00:00+00');
  });

  it('aligns buckets on the wall clock of the request time zone', async () => {
    // 15:47 in Paris (+02:00), 09:47 in New York (-04:00), 19:17 in Kolkata (+05:30).
    expect(await bucket(INSTANT, 1, 'd', 'Europe/Paris')).to.equal('2021-05-18 22:00:00+00');
    expect(await bucket(INSTANT, 1, 'w', 'Europe/Paris')).to.equal('2021-05-16 22:00:00+00');
    expect(await bucket(INSTANT, 1, 'M', 'Europe/Paris')).to.equal('2021-04-30 22:00:00+00');
    expect(await bucket(INSTANT, 1, 'y', 'Europe/Paris')).to.equal('2020-12-31 23:00:00+00');
    expect(await bucket(INSTANT, 1, 'q', 'America/New_York')).to.equal('2021-04-01 04:00:00+00');
    expect(await bucket(INSTANT, 1, 'h', 'Asia/Kolkata')).to.equal('2021-05-19 13:30:00+00');
    expect(await bucket(INSTANT, 6, 'h', 'Asia/Kolkata')).to.equal('2021-05-19 12:30:00+00');
    // The last UTC hour of 2020 is in 2021 in Paris.
    expect(await bucket("TIMESTAMPTZ '2020-12-31 23:30:00+00'", 1, 'y', 'Europe/Paris')).to.equal(
      '2020-12-31 23:00:00+00',
    );
  });

  it('keeps the two passes of the repeated autumn hour apart, and spring buckets whole', async () => {
    // Paris, 2021-10-31: 02:00-03:00 happens at +02:00 (00:00Z) and again at +01:00 (01:00Z).
    const autumn = rowsOf(
      ['00:30', '00:59', '01:30', '02:10'].map((t) => `TIMESTAMPTZ '2021-10-31 ${t}:00+00'`),
    );
    const buckets = (n: number, unit: string, rows: string) =>
      db.texts(compileDateRangeWidth('x', n, unit, 'datetime', 'Europe/Paris').output, rows);
    expect(await buckets(1, 'h', autumn)).to.deep.equal([
      '2021-10-31 00:00:00+00',
      '2021-10-31 00:00:00+00',
      '2021-10-31 01:00:00+00',
      '2021-10-31 02:00:00+00',
    ]);
    expect(await buckets(30, 'm', autumn)).to.deep.equal([
      '2021-10-31 00:30:00+00',
      '2021-10-31 00:30:00+00',
      '2021-10-31 01:30:00+00',
      '2021-10-31 02:00:00+00',
    ]);
    expect(await buckets(1, 'd', autumn)).to.deep.equal(Array(4).fill('2021-10-30 22:00:00+00'));
    // 2021-03-28: 00:30 local (+01:00) and 03:30 local (+02:00) share the 00:00-06:00 bucket, which starts at 23:00Z.
    const spring = rowsOf(
      ['2021-03-27 23:30:00+00', '2021-03-28 01:30:00+00'].map((t) => `TIMESTAMPTZ '${t}'`),
    );
    expect(await buckets(6, 'h', spring)).to.deep.equal(['2021-03-27 23:00:00+00', '2021-03-27 23:00:00+00']);
    expect(await buckets(1, 'd', spring)).to.deep.equal(['2021-03-27 23:00:00+00', '2021-03-27 23:00:00+00']);
  });

  it('buckets dates as dates; units below a day keep the date', async () => {
    const date = "DATE '2021-05-19'";
    const onDate = (n: number, unit: string) => bucket(date, n, unit, 'Europe/Paris', 'date');
    for (const unit of ['ms', 's', 'm', 'h', 'd']) expect(await onDate(1, unit), unit).to.equal('2021-05-19');
    expect(await onDate(12, 'h')).to.equal('2021-05-19');
    expect(await onDate(7, 'd')).to.equal('2021-05-17');
    expect(await onDate(1, 'w')).to.equal('2021-05-17');
    expect(await onDate(1, 'M')).to.equal('2021-05-01');
    expect(await onDate(1, 'q')).to.equal('2021-04-01');
    expect(await onDate(1, 'y')).to.equal('2021-01-01');
    expect(await db.text(`typeof(${compileDateRangeWidth(date, 1, 'q', 'date', 'UTC').output})`)).to.equal(
      'DATE',
    );
    expect(
      await db.text(`typeof(${compileDateRangeWidth(INSTANT, 5, 'm', 'datetime', 'UTC').output})`),
    ).to.equal('TIMESTAMP WITH TIME ZONE');
  });

  it('keeps null for null', async () => {
    expect(await bucket('CAST(NULL AS TIMESTAMPTZ)', 5, 'm', 'Europe/Paris')).to.equal(null);
    expect(await bucket('CAST(NULL AS DATE)', 1, 'M', 'Europe/Paris', 'date')).to.equal(null);
  });

  it('refuses unknown units, several calendar units and widths that are not positive integers', () => {
    const cases: [number, string, RegExp][] = [
      [1, 'H', /^Unknown range\(\) unit: H \(expected one of ms, millisecond/],
      [1, 'mins', /Unknown range\(\) unit: mins/],
      [1, 'D', /Unknown range\(\) unit: D/],
      [1, 'constructor', /Unknown range\(\) unit: constructor/],
      [2, 'w', /^range\(\) does not support a width of more than one week$/],
      [2, 'M', /more than one month/],
      [3, 'quarters', /more than one quarter/],
      [10, 'y', /more than one year/],
      [0, 'd', /^range\(\) width must be a positive integer, got 0$/],
      [-5, 'm', /positive integer/],
      [1.5, 'h', /positive integer/],
      [4_000_000, 'd', /^range\(\) width is too large: 4000000d$/],
      [1e15, 'ms', /too large/],
    ];
    for (const [n, unit, message] of cases) {
      for (const type of ['date', 'datetime'] as const) {
        expect(() => compileDateRangeWidth('x', n, unit, type, 'UTC'), `${n}${unit}`)
          .to.throw(QueryLangError)
          .with.property('message')
          .that.matches(message);
      }
    }
  });
});
