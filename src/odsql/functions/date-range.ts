// range(<date field>, <n><unit>): equal-width buckets aligned on the request time zone's wall
// clock. Here the units and their checks; each dialect writes the buckets
// (dialect/duckdb/date-buckets.ts).
import { QueryLangError } from '../errors.js';

export type FixedUnit = 'millisecond' | 'second' | 'minute' | 'hour';
export type CalendarUnit = 'week' | 'month' | 'quarter' | 'year';
export type RangeUnit = FixedUnit | 'day' | CalendarUnit;

/** explore-api.md's unit spellings (case-sensitive: `m` is minute, `M` month). */
const UNITS: Readonly<Record<string, RangeUnit>> = {
  ms: 'millisecond',
  millisecond: 'millisecond',
  milliseconds: 'millisecond',
  s: 'second',
  second: 'second',
  seconds: 'second',
  m: 'minute',
  minute: 'minute',
  minutes: 'minute',
  h: 'hour',
  hour: 'hour',
  hours: 'hour',
  d: 'day',
  day: 'day',
  days: 'day',
  w: 'week',
  week: 'week',
  weeks: 'week',
  M: 'month',
  month: 'month',
  months: 'month',
  q: 'quarter',
  quarter: 'quarter',
  quarters: 'quarter',
  y: 'year',
  year: 'year',
  years: 'year',
};

/** Microseconds of each unit below a day. */
export const UNIT_MICROS = {
  millisecond: 1_000n,
  second: 1_000_000n,
  minute: 60_000_000n,
  hour: 3_600_000_000n,
} as const satisfies Record<FixedUnit, bigint>;

/** Widths above ten thousand years are refused: they would overflow DuckDB's intervals. */
const MAX_WIDTH_MICROS = 10_000n * 366n * 86_400_000_000n;
const MAX_WIDTH_DAYS = 10_000 * 366;

export const isCalendar = (unit: RangeUnit): unit is CalendarUnit =>
  unit === 'week' || unit === 'month' || unit === 'quarter' || unit === 'year';

/** The unit of a width `n` written `spelling`; an unknown unit or a width out of bounds throws QueryLangError. */
export function unitOf(n: number, spelling: string): RangeUnit {
  const unit = Object.prototype.hasOwnProperty.call(UNITS, spelling) ? UNITS[spelling] : undefined;
  if (unit === undefined) {
    throw new QueryLangError(
      `Unknown range() unit: ${spelling} (expected one of ${Object.keys(UNITS).join(', ')})`,
    );
  }
  if (!Number.isSafeInteger(n) || n < 1)
    throw new QueryLangError(`range() width must be a positive integer, got ${n}`);
  if (isCalendar(unit) && n > 1)
    throw new QueryLangError(`range() does not support a width of more than one ${unit}`);
  const tooWide =
    unit === 'day'
      ? n > MAX_WIDTH_DAYS
      : !isCalendar(unit) && BigInt(n) * UNIT_MICROS[unit] > MAX_WIDTH_MICROS;
  if (tooWide) throw new QueryLangError(`range() width is too large: ${n}${spelling}`);
  return unit;
}
