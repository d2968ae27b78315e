// Date parts and the JSON text of dates and datetimes, executed in DuckDB around DST changes and odd offsets.
import { expect } from 'chai';
import { compileDatePart } from '../../src/odsql/dialect/duckdb/date.js';
import { presentDate, presentDatetime } from '../../src/odsql/dialect/duckdb/date-present.js';
import type { DatePart } from '../../src/odsql/functions/temporal.js';
import { openDateDb, rowsOf, type DateDb } from './date-db.js';

const PARTS: readonly DatePart[] = ['year', 'month', 'day', 'hour', 'minute', 'second'];

describe('date parts and date output', () => {
  let db: DateDb;
  before(async () => {
    db = await openDateDb();
  });
  after(() => db.close());

  describe('presentDatetime()', () => {
    const present = (instants: string[], timezone: string) =>
      db.texts(presentDatetime('x', timezone), rowsOf(instants.map((t) => `TIMESTAMPTZ '${t}'`)));

    it('writes the offset in force at each instant, on both sides of the Paris DST changes', async () => {
      const instants = [
        '2021-01-15 12:00:00+00',
        '2021-03-28 00:59:59+00',
        '2021-03-28 01:00:00+00',
        '2021-07-01 12:00:00+00',
        '2021-10-31 00:30:00+00',
        '2021-10-31 01:30:00+00',
      ];
      expect(await present(instants, 'Europe/Paris')).to.deep.equal([
        '2021-01-15T13:00:00+01:00',
        '2021-03-28T01:59:59+01:00',
        '2021-03-28T03:00:00+02:00',
        '2021-07-01T14:00:00+02:00',
        '2021-10-31T02:30:00+02:00',
        '2021-10-31T02:30:00+01:00',
      ]);
      expect(await present(instants, 'UTC')).to.deep.equal([
        '2021-01-15T12:00:00+00:00',
        '2021-03-28T00:59:59+00:00',
        '2021-03-28T01:00:00+00:00',
        '2021-07-01T12:00:00+00:00',
        '2021-10-31T00:30:00+00:00',
        '2021-10-31T01:30:00+00:00',
      ]);
    });

    it('writes the one offset of a zone without DST as text, and the offset in force outside 1970-2037', async () => {
      const instants = ['1943-01-01 00:00:00+00', '2021-07-01 12:00:00+00', '2040-01-01 00:00:00+00'];
      // Kolkata's war time (+06:30) is before the window of computed offsets; ICU reads it.
      expect(await present(instants, 'Asia/Kolkata')).to.deep.equal([
        '1943-01-01T06:30:00+06:30',
        '2021-07-01T17:30:00+05:30',
        '2040-01-01T05:30:00+05:30',
      ]);
      expect(await present(instants.slice(1), 'America/Phoenix')).to.deep.equal([
        '2021-07-01T05:00:00-07:00',
        '2039-12-31T17:00:00-07:00',
      ]);
      expect(await present(['1900-01-01 00:00:00+00'], 'Etc/UTC')).to.deep.equal([
        '1900-01-01T00:00:00+00:00',
      ]);
      expect(presentDatetime('x', 'Asia/Kolkata')).to.include("'%Y-%m-%dT%H:%M:%S+05:30'");
      expect(presentDatetime('x', 'UTC')).to.equal(
        "strftime(make_timestamp(epoch_us(x)), '%Y-%m-%dT%H:%M:%S+00:00')",
      );
    });

    it('writes negative offsets and offsets with minutes', async () => {
      const march = ['2021-03-14 06:59:59+00', '2021-03-14 07:00:00+00'];
      expect(await present(march, 'America/New_York')).to.deep.equal([
        '2021-03-14T01:59:59-05:00',
        '2021-03-14T03:00:00-04:00',
      ]);
      const noon = ['2021-01-15 12:00:00+00'];
      expect(await present(noon, 'Asia/Kolkata')).to.deep.equal(['2021-01-15T17:30:00+05:30']);
      expect(await present(noon, 'Asia/Kathmandu')).to.deep.equal(['2021-01-15T17:45:00+05:45']);
      expect(await present(noon, 'America/St_Johns')).to.deep.equal(['2021-01-15T08:30:00-03:30']);
      expect(await present(noon, 'Pacific/Kiritimati')).to.deep.equal(['2021-01-16T02:00:00+14:00']);
      expect(await present(noon, 'Pacific/Pago_Pago')).to.deep.equal(['2021-01-15T01:00:00-11:00']);
    });

    it('drops fractions of a second and keeps null for null', async () => {
      expect(await present(['2021-01-15 12:00:00.999999+00'], 'UTC')).to.deep.equal([
        '2021-01-15T12:00:00+00:00',
      ]);
      expect(await db.text(presentDatetime('CAST(NULL AS TIMESTAMPTZ)', 'Europe/Paris'))).to.equal(null);
    });
  });

  it('presentDate() writes YYYY-MM-DD and keeps null for null', async () => {
    expect(await db.text(presentDate("DATE '2021-01-03'"))).to.equal('2021-01-03');
    expect(await db.text(presentDate("DATE '0033-04-01'"))).to.equal('0033-04-01');
    expect(await db.text(presentDate('CAST(NULL AS DATE)'))).to.equal(null);
  });

  describe('compileDatePart()', () => {
    const parts = async (sql: string, type: 'date' | 'datetime', timezone: string) => {
      const values = PARTS.map((part) => compileDatePart(part, sql, type, timezone));
      return db.text(`[${values.join(', ')}]`);
    };

    it('reads datetimes on the wall clock of the request time zone', async () => {
      const instant = "TIMESTAMPTZ '2020-12-31 23:30:45.75+00'";
      expect(await parts(instant, 'datetime', 'UTC')).to.equal('[2020, 12, 31, 23, 30, 45]');
      expect(await parts(instant, 'datetime', 'Europe/Paris')).to.equal('[2021, 1, 1, 0, 30, 45]');
      expect(await parts(instant, 'datetime', 'America/New_York')).to.equal('[2020, 12, 31, 18, 30, 45]');
      expect(await parts(instant, 'datetime', 'Asia/Kolkata')).to.equal('[2021, 1, 1, 5, 0, 45]');
      const summer = "TIMESTAMPTZ '2021-07-01 12:00:00+00'";
      expect(await parts(summer, 'datetime', 'Europe/Paris')).to.equal('[2021, 7, 1, 14, 0, 0]');
    });

    it('gives 0 for the time of a date, null for null, and BIGINT values', async () => {
      expect(await parts("DATE '2021-02-03'", 'date', 'Asia/Tokyo')).to.equal('[2021, 2, 3, 0, 0, 0]');
      expect(await parts('CAST(NULL AS DATE)', 'date', 'UTC')).to.equal(
        '[NULL, NULL, NULL, NULL, NULL, NULL]',
      );
      expect(await parts('CAST(NULL AS TIMESTAMPTZ)', 'datetime', 'UTC')).to.equal(
        '[NULL, NULL, NULL, NULL, NULL, NULL]',
      );
      for (const part of PARTS) {
        const sql = compileDatePart(part, "TIMESTAMPTZ '2021-07-01 12:00:00+00'", 'datetime', 'Europe/Paris');
        expect(await db.text(`typeof(${sql})`), part).to.equal('BIGINT');
        expect(
          await db.text(`typeof(${compileDatePart(part, "DATE '2021-02-03'", 'date', 'UTC')})`),
        ).to.equal('BIGINT');
      }
    });
  });
});
