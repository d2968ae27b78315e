// now() with named parameters, executed with a pinned reference instant and checked against a JS model of the rules.
import { expect } from 'chai';
import fc from 'fast-check';
import { QueryLangError } from '../../src/odsql/errors.js';
import { compileNow } from '../../src/odsql/dialect/duckdb/date-now.js';
import { openDateDb, type DateDb } from './date-db.js';
import { nowModel, WEEKDAY_NAMES, type Named } from './date-now-model.js';

describe('now()', () => {
  let db: DateDb;
  before(async () => {
    db = await openDateDb();
  });
  after(() => db.close());

  const WALL = '%Y-%m-%d %H:%M:%S.%f';

  /** now(named) at `reference`, read on the wall clock of `timezone`, and the model's answer. */
  async function both(named: Named, reference: string, timezone: string) {
    const ref = `TIMESTAMPTZ '${reference}'`;
    const quoted = `'${timezone}'`;
    const actual = await db.text(
      `strftime(timezone(${quoted}, ${compileNow(named, timezone, ref)}), '${WALL}')`,
    );
    const wall = await db.text(`strftime(timezone(${quoted}, ${ref}), '${WALL}')`);
    return { actual, expected: nowModel(wall!, named) };
  }

  async function wallAfter(named: Named, reference: string, timezone = 'UTC'): Promise<string | null> {
    const { actual, expected } = await both(named, reference, timezone);
    expect(actual, JSON.stringify(named)).to.equal(expected);
    return actual;
  }

  // Wednesday 2021-03-31 14:25:36.123456 UTC (16:25 in Paris, 10:25 in New York).
  const REF = '2021-03-31 14:25:36.123456+00';

  it('without parameters is the reference instant itself', async () => {
    expect(compileNow([], 'Europe/Paris')).to.equal('now()');
    expect(await db.text(compileNow([], 'Europe/Paris', `TIMESTAMPTZ '${REF}'`))).to.equal(
      '2021-03-31 14:25:36.123456+00',
    );
  });

  it('sets each component; day is capped to the last day of the month', async () => {
    const one = (name: string, value: number) => wallAfter([{ name, value }], REF);
    expect(await one('year', 1999)).to.equal('1999-03-31 14:25:36.123456');
    expect(await one('month', 4)).to.equal('2021-04-30 14:25:36.123456');
    expect(await one('month', 2)).to.equal('2021-02-28 14:25:36.123456');
    expect(await one('day', 1)).to.equal('2021-03-01 14:25:36.123456');
    expect(await one('day', 40)).to.equal('2021-03-31 14:25:36.123456');
    expect(await one('hour', 0)).to.equal('2021-03-31 00:25:36.123456');
    expect(await one('minute', 59)).to.equal('2021-03-31 14:59:36.123456');
    expect(await one('second', 0)).to.equal('2021-03-31 14:25:00.123456');
    expect(await one('microsecond', 7)).to.equal('2021-03-31 14:25:36.000007');
    expect(
      await wallAfter(
        [
          { name: 'year', value: 2020 },
          { name: 'month', value: 2 },
        ],
        REF,
      ),
    ).to.equal('2020-02-29 14:25:36.123456');
  });

  it('adds each plural amount, carrying overflow into larger components', async () => {
    const one = (name: string, value: number) => wallAfter([{ name, value }], REF);
    expect(await one('years', -1)).to.equal('2020-03-31 14:25:36.123456');
    expect(await one('months', 11)).to.equal('2022-02-28 14:25:36.123456');
    expect(await one('months', -13)).to.equal('2020-02-29 14:25:36.123456');
    expect(await one('days', 1)).to.equal('2021-04-01 14:25:36.123456');
    expect(await one('days', -365)).to.equal('2020-03-31 14:25:36.123456');
    expect(await one('hours', 10)).to.equal('2021-04-01 00:25:36.123456');
    expect(await one('minutes', -1500)).to.equal('2021-03-30 13:25:36.123456');
    expect(await one('seconds', 24)).to.equal('2021-03-31 14:26:00.123456');
    expect(await one('microseconds', 876_544)).to.equal('2021-03-31 14:25:37.000000');
  });

  it('moves forward to a weekday (0 = Monday), staying on the day when it already is that weekday', async () => {
    const expected = [
      '2021-04-05',
      '2021-04-06',
      '2021-03-31',
      '2021-04-01',
      '2021-04-02',
      '2021-04-03',
      '2021-04-04',
    ];
    for (let day = 0; day <= 6; day++) {
      expect(await wallAfter([{ name: 'weekday', value: day }], REF)).to.equal(
        `${expected[day]} 14:25:36.123456`,
      );
    }
  });

  it('adds or subtracts a number of a given weekday', async () => {
    const at = async (name: string, value: number) => (await wallAfter([{ name, value }], REF))!.slice(0, 10);
    expect(await at('mondays', 1)).to.equal('2021-04-05');
    expect(await at('mondays', 2)).to.equal('2021-04-12');
    expect(await at('mondays', -1)).to.equal('2021-03-29');
    expect(await at('wednesdays', 1)).to.equal('2021-03-31');
    expect(await at('wednesdays', 2)).to.equal('2021-04-07');
    expect(await at('wednesdays', -1)).to.equal('2021-03-31');
    expect(await at('wednesdays', -2)).to.equal('2021-03-24');
    expect(await at('fridays', -1)).to.equal('2021-03-26');
    for (const name of WEEKDAY_NAMES) for (const value of [-3, -1, 0, 1, 3]) await at(name, value);
  });

  it('lets the last of repeated parameters win, a weekday move against a plural weekday too', async () => {
    const days = (value: number) => ({ name: 'days', value });
    expect(await wallAfter([days(1), days(-2)], REF)).to.equal('2021-03-29 14:25:36.123456');
    expect(
      await wallAfter(
        [
          { name: 'mondays', value: 2 },
          { name: 'weekday', value: 4 },
        ],
        REF,
      ),
    ).to.equal('2021-04-02 14:25:36.123456');
  });

  it('applies setters, then months, then the other shifts, then the weekday move', async () => {
    const named: Named = [
      { name: 'weekday', value: 0 },
      { name: 'days', value: 1 },
      { name: 'months', value: 1 },
      { name: 'day', value: 31 },
      { name: 'hour', value: 0 },
    ];
    // April has 30 days; one day later is Saturday May 1st; then the next Monday.
    expect(await wallAfter(named, REF)).to.equal('2021-05-03 00:25:36.123456');
  });

  it('works on the wall clock of the request time zone, across DST changes', async () => {
    // Saturday 2021-03-27 12:00 in Paris (+01:00); the next day is on summer time (+02:00).
    const saturdayNoon = '2021-03-27 11:00:00+00';
    const paris = (named: Named) => compileNow(named, 'Europe/Paris', `TIMESTAMPTZ '${saturdayNoon}'`);
    expect(await db.text(paris([{ name: 'days', value: 1 }]))).to.equal('2021-03-28 10:00:00+00');
    expect(await db.text(paris([{ name: 'hours', value: 24 }]))).to.equal('2021-03-28 10:00:00+00');
    expect(await db.text(paris([{ name: 'hour', value: 0 }]))).to.equal('2021-03-26 23:00:00+00');
    expect(
      await db.text(
        paris([
          { name: 'sundays', value: 1 },
          { name: 'hour', value: 23 },
        ]),
      ),
    ).to.equal('2021-03-28 21:00:00+00');
    // 16:30 on 2021-03-13 in New York is 21:30 UTC but already the 14th in UTC: day=1 acts on the local date.
    const ny = compileNow(
      [{ name: 'day', value: 1 }],
      'America/New_York',
      `TIMESTAMPTZ '2021-03-13 21:30:00+00'`,
    );
    expect(await db.text(ny)).to.equal('2021-03-01 21:30:00+00');
    await wallAfter([{ name: 'months', value: 1 }], '2021-10-31 12:00:00+00', 'America/New_York');
  });

  it('agrees with the model on random combinations, time zones and reference instants', async () => {
    const setters = fc.oneof(
      fc.record({ name: fc.constant('year'), value: fc.integer({ min: 1950, max: 2100 }) }),
      fc.record({ name: fc.constant('month'), value: fc.integer({ min: 1, max: 12 }) }),
      fc.record({ name: fc.constant('day'), value: fc.integer({ min: 1, max: 40 }) }),
      fc.record({ name: fc.constant('hour'), value: fc.integer({ min: 0, max: 23 }) }),
      fc.record({ name: fc.constant('minute'), value: fc.integer({ min: 0, max: 59 }) }),
      fc.record({ name: fc.constant('second'), value: fc.integer({ min: 0, max: 59 }) }),
      fc.record({ name: fc.constant('microsecond'), value: fc.integer({ min: 0, max: 999_999 }) }),
      fc.record({ name: fc.constant('weekday'), value: fc.integer({ min: 0, max: 6 }) }),
    );
    const shifts = fc.oneof(
      fc.record({ name: fc.constant('years'), value: fc.integer({ min: -40, max: 40 }) }),
      fc.record({ name: fc.constant('months'), value: fc.integer({ min: -500, max: 500 }) }),
      fc.record({ name: fc.constant('days'), value: fc.integer({ min: -5000, max: 5000 }) }),
      fc.record({ name: fc.constant('hours'), value: fc.integer({ min: -100_000, max: 100_000 }) }),
      fc.record({ name: fc.constant('minutes'), value: fc.integer({ min: -1e6, max: 1e6 }) }),
      fc.record({ name: fc.constant('seconds'), value: fc.integer({ min: -1e8, max: 1e8 }) }),
      fc.record({ name: fc.constant('microseconds'), value: fc.integer({ min: -1e13, max: 1e13 }) }),
      fc.record({ name: fc.constantFrom(...WEEKDAY_NAMES), value: fc.integer({ min: -60, max: 60 }) }),
    );
    const named = fc.array(fc.oneof(setters, shifts), { minLength: 1, maxLength: 5 });
    const reference = fc
      .integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2040, 0, 1) })
      .map((ms) => `${new Date(ms).toISOString().replace('T', ' ').slice(0, 23)}+00`);
    const timezone = fc.constantFrom('UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata');
    await fc.assert(
      fc.asyncProperty(named, reference, timezone, async (params, ref, tz) => {
        const { actual, expected } = await both(params, ref, tz);
        // A wall-clock time skipped by a DST change has no instant: DuckDB moves it by the change.
        const skipped = await db.text(
          `timezone('${tz}', timezone('${tz}', TIMESTAMP '${expected}')) <> TIMESTAMP '${expected}'`,
        );
        if (skipped !== 'true')
          expect(actual, `${JSON.stringify(params)} at ${ref} in ${tz}`).to.equal(expected);
      }),
      { numRuns: 200, seed: 7 },
    );
    // 200 runs of several DuckDB statements each: 40-50 s alone, 95 s on the shared 2-core machine.
  }).timeout(300_000);

  it('refuses unknown names, out-of-range values and non-integers', () => {
    const cases: [string, number, RegExp][] = [
      ['fortnight', 1, /^Unknown now\(\) parameter: fortnight$/],
      ['year', 0, /year must be an integer from 1 to 9999, got 0/],
      ['year', 10000, /year/],
      ['month', 13, /month must be an integer from 1 to 12/],
      ['month', 0, /month/],
      ['day', 0, /day/],
      ['hour', 24, /hour must be an integer from 0 to 23/],
      ['minute', 60, /minute/],
      ['second', -1, /second/],
      ['microsecond', 1_000_000, /microsecond/],
      ['weekday', 7, /weekday must be an integer from 0 to 6/],
      ['days', 1.5, /days must be an integer/],
      ['years', 20_000, /years/],
      ['microseconds', 2 ** 60, /microseconds/],
      ['mondays', Number.NaN, /mondays/],
    ];
    for (const [name, value, message] of cases) {
      expect(() => compileNow([{ name, value }], 'UTC'), `${name}=${value}`)
        .to.throw(QueryLangError)
        .with.property('message')
        .that.matches(message);
    }
  });
});
