// now() with named parameters: set or shift components of the current wall-clock time of the
// request time zone. Here what the parameters mean and their checks; each dialect writes the
// moves (dialect/duckdb/date-now.ts).
import { QueryLangError } from '../errors.js';

export type Setter = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'microsecond';
export type Shift = 'years' | 'months' | 'days' | 'hours' | 'minutes' | 'seconds' | 'microseconds';
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
export const SHIFT_MICROS = {
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
export interface WeekdayMove {
  day: number;
  nth: number;
}

/** now()'s parameters read: the components set, the shifts, and the weekday move. */
export interface NowSpec {
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

/**
 * now()'s named parameters as one specification: setters first (day capped to the month's last
 * day), then years and months, then the other shifts, then the weekday move, all on the wall clock
 * of the request's time zone. The last of repeated names (and of weekday moves) wins; a name or
 * value out of explore-api.md's throws QueryLangError.
 */
export function nowSpec(named: readonly { name: string; value: number }[]): NowSpec {
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
