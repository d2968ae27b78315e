// ISO datetimes without an offset are stored through the naive TIMESTAMP cast (text-tests.ts,
// `cheaper`): the same instants as the TIMESTAMPTZ cast in the session's UTC, over generated cells
// with and without offsets, `Z`, fractions and times; and inference uses it only when no cell of
// the whole table carries an offset. The other datetime formats' conversions read the same instants
// as a cast in UTC too.
import { expect } from 'chai';
import fc from 'fast-check';
import { useUtcDuckDB } from '../helpers/utc-duckdb.js';
import { inferTextColumns } from '../../src/ingest/text-inference.js';
import { DEFAULT_DIALECT, textTests, type TextTest } from '../../src/ingest/text-tests.js';
import { quoteString } from '../../src/sql/quoting.js';

const digits = (count: number, max: number): fc.Arbitrary<string> =>
  fc.integer({ min: 0, max }).map((n) => String(n).padStart(count, '0'));

/** ISO-looking cells, some out of range (month 13, hour 24, second 60) and some with an offset or Z. */
const isoCell: fc.Arbitrary<string> = fc
  .record({
    date: fc.tuple(digits(4, 9999), digits(2, 13), digits(2, 32)).map((p) => p.join('-')),
    time: fc.option(
      fc.record({
        separator: fc.constantFrom('T', ' '),
        hm: fc.tuple(digits(2, 25), digits(2, 61)).map((p) => p.join(':')),
        seconds: fc.option(digits(2, 61)),
        fraction: fc.option(fc.stringMatching(/^[0-9]{1,12}$/)),
      }),
    ),
    zone: fc.option(
      fc.oneof(
        fc.constant('Z'),
        fc
          .tuple(fc.constantFrom('+', '-'), digits(2, 15), fc.option(digits(2, 59)))
          .map(([sign, hours, minutes]) => `${sign}${hours}${minutes === null ? '' : `:${minutes}`}`),
      ),
    ),
  })
  .map(({ date, time, zone }) => {
    if (time === null) return `${date}${zone ?? ''}`;
    const seconds =
      time.seconds === null ? '' : `:${time.seconds}${time.fraction === null ? '' : `.${time.fraction}`}`;
    return `${date}${time.separator}${time.hm}${seconds}${zone ?? ''}`;
  });

const isoTest = textTests(DEFAULT_DIALECT).find((t) => t.type === 'datetime' && t.cheaper) as TextTest;

describe('ingest: ISO datetimes without an offset', () => {
  const duck = useUtcDuckDB();

  it('the naive cast reads every cell of the naive shape the test passes as the TIMESTAMPTZ cast does', async () => {
    const cheaper = isoTest.cheaper!;
    await fc.assert(
      fc.asyncProperty(fc.array(isoCell, { minLength: 1, maxLength: 200 }), async (cells) => {
        const values = cells.map((cell) => `(${quoteString(cell)})`).join(', ');
        const reader = await duck.connection.runAndReadAll(`
          SELECT v, ${cheaper.shape('v')} AS naive, CAST(${isoTest.convert('v')} AS VARCHAR),
            CAST(try(${cheaper.convert('v')}) AS VARCHAR)
          FROM (VALUES ${values}) t(v) WHERE ${isoTest.test('v')}`);
        for (const [cell, naive, full, cheap] of reader.getRowsJson()) {
          const text = cell as string;
          const zoned = /(Z|[+-][0-9]{2}(:[0-9]{2})?)$/.test(text.slice(10));
          expect(naive, text).to.equal(!zoned);
          if (naive) expect(cheap, text).to.equal(full);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('datetimes of the other formats are the instants CAST(strptime(...) AS TIMESTAMPTZ) reads in UTC', async () => {
    const formatted = textTests(DEFAULT_DIALECT).filter((t) => t.type === 'datetime' && t.format);
    expect(formatted.length).to.be.greaterThan(0);
    for (const test of formatted) {
      const format = quoteString(test.format!);
      // Minutes spread over years 1 to 9999, each written in the format, seconds included when it has them.
      const reader = await duck.connection.runAndReadAll(`
        SELECT count(*), count_if(${test.convert('v')} IS DISTINCT FROM CAST(strptime(v, ${format}) AS TIMESTAMPTZ))
        FROM (SELECT strftime(TIMESTAMP '0001-01-01 00:00:00' + INTERVAL (i * 52579 + i % 60) MINUTE
          + INTERVAL (i % 61) SECOND, ${format}) AS v FROM range(100000) r(i))`);
      expect(reader.getRowsJson()[0], test.format).to.deep.equal(['100000', '0']);
    }
  });

  it('stores through the naive cast only when no cell of the whole table has an offset', async () => {
    // Row 45678 is usually outside the 20,000-row sample: the table's own pass must see its offset.
    await duck.connection.run(`CREATE OR REPLACE TABLE src AS SELECT i,
        strftime(TIMESTAMP '2001-01-01' + INTERVAL (i) MINUTE, '%Y-%m-%d %H:%M:%S') AS naive,
        CASE WHEN i = 45678 THEN '2001-02-01T10:00:00+02:00'
          ELSE strftime(TIMESTAMP '2001-01-01' + INTERVAL (i) MINUTE, '%Y-%m-%dT%H:%M') END AS zoned
      FROM range(50000) r(i)`);
    const [naive, zoned] = await inferTextColumns(duck.connection, 'src', [
      { text: 'naive' },
      { text: 'zoned' },
    ]);
    expect([naive!.type, zoned!.type]).to.deep.equal(['datetime', 'datetime']);
    expect(naive!.sql).to.include('AS TIMESTAMP)');
    expect(zoned!.sql).to.not.include('AS TIMESTAMP)');
    const reader = await duck.connection.runAndReadAll(`SELECT CAST(${naive!.sql} AS VARCHAR),
        CAST(${zoned!.sql} AS VARCHAR) FROM src WHERE i IN (1, 45678) ORDER BY i`);
    expect(reader.getRowsJson()).to.deep.equal([
      ['2001-01-01 00:01:00+00', '2001-01-01 00:01:00+00'],
      ['2001-02-01 17:18:00+00', '2001-02-01 08:00:00+00'],
    ]);
  });
});
