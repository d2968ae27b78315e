// now() with named parameters: set or shift components of the current wall-clock time of the request time zone.
import { QueryLangError } from '../errors.js';
import { quoteString } from '../dialect/duckdb/quoting.js';
import { instantOf } from './date-sql.js';

type Setter = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'microsecond';
type Shift = 'years' | 'months' | 'days' | 'hours' | 'minutes' | 'seconds' | 'microseconds';
type Weekdays = 'mondays' | 'tuesdays' | 'wednesdays' | 'thursdays' | 'fridays' | 'saturdays' | 'sundays';

/** Accepted values of the component setters (explore-api.md); day is capped to the month later. */
const SETTER_RANGES = {
  year: [1, 9999],
  month: [1, 12],
  day: [1, 2_147_483_647],
  hour: [0, 23],
  minute: [0, 59],
  second: [0, 59],
  microsecond: [0, 999_999],
} as const satisfies Record<Setter, readonly [number, number]>;

/** Microseconds per unit of the shifts below a day; days and months are calendar shifts. */
const SHIFT_MICROS = {
  hours: 3_600_000_000n,
  minutes: 60_000_000n,
  seconds: 1_000_000n,
  microseconds: 1n,
} as const satisfies Partial<Record<Shift, bigint>>;

/** Bounds keeping every shift within ten thousand years, so the result stays a valid timestamp. */
const SHIFT_LIMITS = {
  years: 10_000,
  months: 120_000,
  days: 3_660_000,
  hours: 87_840_000,
  minutes: 5_270_400_000,
  seconds: 316_224_000_000,
  // The largest exact integer: about 285 years.
  microseconds: Number.MAX_SAFE_INTEGER,
} satisfies Record<Shift, number>;

/** Day index (0 = Monday) of each plural weekday name. */
const WEEKDAY_INDEX = {
  mondays: 0,
  tuesdays: 1,
  wednesdays: 2,
  thursdays: 3,
  fridays: 4,
  saturdays: 5,
  sundays: 6,
} as const satisfies Record<Weekdays, number>;

/** A move to the `nth` (negative: backwards) occurrence of a weekday, the current day counting as the first. */
interface WeekdayMove {
  day: number;
  nth: number;
}

interface NowSpec {
  set: Partial<Record<Setter, number>>;
  shift: Partial<Record<Shift, number>>;
  weekday: WeekdayMove | null;
}

const has = <T extends object>(table: T, name: string): name is Extract<keyof T, string> =>
  Object.prototype.hasOwnProperty.call(table, name);

function checkRange(name: string, value: number, [low, high]: readonly [number, number]): void {
  if (!Number.isSafeInteger(value) || value < low || value > high) {
    throw new QueryLangError(
      `now() parameter ${name} must be an integer from ${low} to ${high}, got ${value}`,
    );
  }
}

/** The named parameters as one specification; the last of repeated names (and of weekday moves) wins. */
function specOf(named: readonly { name: string; value: number }[]): NowSpec {
  const spec: NowSpec = { set: {}, shift: {}, weekday: null };
  for (const { name, value } of named) {
    if (has(SETTER_RANGES, name)) {
      checkRange(name, value, SETTER_RANGES[name]);
      spec.set[name] = value;
    } else if (has(SHIFT_LIMITS, name)) {
      checkRange(name, value, [-SHIFT_LIMITS[name], SHIFT_LIMITS[name]]);
      spec.shift[name] = value;
    } else if (name === 'weekday') {
      checkRange(name, value, [0, 6]);
      spec.weekday = { day: value, nth: 1 };
    } else if (has(WEEKDAY_INDEX, name)) {
      checkRange(name, value, [-520_000, 520_000]);
      spec.weekday = { day: WEEKDAY_INDEX[name], nth: value };
    } else {
      throw new QueryLangError(`Unknown now() parameter: ${name}`);
    }
  }
  return spec;
}

/** DATE SQL of the local date after setting year, month, day and shifting months (day capped); null: unchanged. */
function dateSql(spec: NowSpec, local: string): string | null {
  const { year, month, day } = spec.set;
  const months = (spec.shift.years ?? 0) * 12 + (spec.shift.months ?? 0);
  if (year === undefined && month === undefined && day === undefined && months === 0) return null;
  const monthStart = `make_date(${year ?? `year(${local})`}, ${month ?? `month(${local})`}, 1)`;
  const first = months === 0 ? monthStart : `CAST(${monthStart} + to_months(${months}) AS DATE)`;
  return `(${first} + CAST(least(${day ?? `day(${local})`}, day(last_day(${first}))) - 1 AS INTEGER))`;
}

/** TIMESTAMP SQL of the local date with hour, minute, second and microsecond set where asked. */
function wallClockSql(spec: NowSpec, local: string): string {
  const { hour, minute, second, microsecond } = spec.set;
  const date = dateSql(spec, local);
  if ([hour, minute, second, microsecond].every((v) => v === undefined)) {
    return date === null ? local : `(${date} + CAST(${local} AS TIME))`;
  }
  // Set components add up to a constant; the others are read from the reference (BIGINT, no overflow).
  const parts = [
    [hour, `hour(${local})`, 3_600_000_000n],
    [minute, `minute(${local})`, 60_000_000n],
    [second, `second(${local})`, 1_000_000n],
    [microsecond, `microsecond(${local}) % 1000000`, 1n],
  ] as const;
  const constant = parts.reduce((sum, [value, , unit]) => sum + BigInt(value ?? 0) * unit, 0n);
  const read = parts.filter(([value]) => value === undefined).map(([, sql, unit]) => `(${sql}) * ${unit}`);
  const micros = [String(constant), ...read].join(' + ');
  return `(CAST(${date ?? `CAST(${local} AS DATE)`} AS TIMESTAMP) + to_microseconds(${micros}))`;
}

/** TIMESTAMP SQL of the wall clock shifted by days and by the exact sub-day shifts. */
function shiftedSql(spec: NowSpec, wallClock: string): string {
  const { days } = spec.shift;
  const micros = Object.entries(SHIFT_MICROS).reduce(
    (sum, [name, unit]) => sum + BigInt(spec.shift[name as keyof typeof SHIFT_MICROS] ?? 0) * unit,
    0n,
  );
  const withDays = days ? `(${wallClock} + to_days(${days}))` : wallClock;
  return micros === 0n ? withDays : `(${withDays} + to_microseconds(${micros}))`;
}

/** TIMESTAMP SQL moved to the nth occurrence of a weekday (dateutil's relativedelta rule). */
function weekdaySql(move: WeekdayMove | null, local: string): string {
  if (move === null || move.nth === 0) return local;
  const today = `(isodow(${local}) - 1)`;
  const extraWeeks = (Math.abs(move.nth) - 1) * 7;
  const days =
    move.nth > 0
      ? `(${extraWeeks} + (7 - ${today} + ${move.day}) % 7)`
      : `(-${extraWeeks} - (${today} - ${move.day} + 7) % 7)`;
  return `(${local} + to_days(CAST(${days} AS INTEGER)))`;
}

/**
 * TIMESTAMPTZ SQL of now() with explore-api.md's named parameters: setters first (day capped to
 * the month's last day), then years and months, then the other shifts, then the weekday move,
 * all on the wall clock of `timezone`. `reference` replaces the current instant (tests pin it).
 */
export function compileNow(
  named: readonly { name: string; value: number }[],
  timezone: string,
  reference = 'now()',
): string {
  const spec = specOf(named);
  if (named.length === 0) return reference;
  // One instant: ICU is cheap here, and localTimestamp's arithmetic, repeated for each component
  // read below, made 80 KB of SQL that took 0.4 s to plan (1.5 s on a loaded machine).
  const local = `timezone(${quoteString(timezone)}, ${reference})`;
  const moved = weekdaySql(spec.weekday, shiftedSql(spec, wallClockSql(spec, local)));
  return instantOf(moved, timezone);
}
