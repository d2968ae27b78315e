// range(<date field>, <n><unit>): equal-width buckets aligned on the request time zone's wall clock.
import { QueryLangError } from '../errors.js';
import type { DateLikeType } from '../types.js';
import { instantOf, localTimestamp } from './date-sql.js';

type FixedUnit = 'millisecond' | 'second' | 'minute' | 'hour';
type CalendarUnit = 'week' | 'month' | 'quarter' | 'year';
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

const UNIT_MICROS = {
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

/** DATE SQL of the bucket of a date; a date has no time of day, so units below a day give the date itself. */
function dateBucket(x: string, n: number, unit: RangeUnit): string {
  if (isCalendar(unit)) return `CAST(date_trunc('${unit}', ${x}) AS DATE)`;
  return unit === 'day' && n > 1 ? `time_bucket(to_days(${n}), ${x})` : x;
}

/** A bucket's SQL: what rows are grouped on, and the group's TIMESTAMPTZ (or DATE) start. */
export interface BucketSql {
  readonly group: string;
  readonly output: string;
}

/**
 * The bucket of an instant, bucketed on the wall clock. Calendar and day buckets group on the
 * local start (cheap per row) and convert it back once per group. Below a day the start keeps
 * the instant's own offset when that is a reading of the same wall-clock start, so the two
 * passes of a repeated autumn hour stay apart; otherwise the wall-clock start is converted back
 * (a bucket straddling a change of offset).
 */
function datetimeBucket(x: string, n: number, unit: RangeUnit, timezone: string): BucketSql {
  const local = localTimestamp(x, timezone);
  if (isCalendar(unit) || unit === 'day') {
    const group =
      unit === 'day' && n > 1 ? `time_bucket(to_days(${n}), ${local})` : `date_trunc('${unit}', ${local})`;
    return { group, output: instantOf(group, timezone) };
  }
  const start = `time_bucket(to_microseconds(${BigInt(n) * UNIT_MICROS[unit]}), ${local})`;
  const sameOffset = `make_timestamptz(epoch_us(${x}) - (epoch_us(${local}) - epoch_us(${start})))`;
  const bucket = `CASE WHEN ${localTimestamp(sameOffset, timezone)} = ${start} THEN ${sameOffset} ELSE ${instantOf(start, timezone)} END`;
  return { group: bucket, output: bucket };
}

/**
 * The equal-width bucket holding a date (DATE) or datetime (TIMESTAMPTZ): its grouping SQL and
 * its start, of the field's type. Units as explore-api.md; more than one week, month, quarter or
 * year, an unknown unit or a width that is not a positive integer throw QueryLangError. Buckets
 * of several days or sub-day widths start from DuckDB's time_bucket origin (Monday 2000-01-03).
 */
export function compileDateRangeWidth(
  sqlExpr: string,
  n: number,
  unit: string,
  type: DateLikeType,
  timezone: string,
): BucketSql {
  const rangeUnit = unitOf(n, unit);
  if (type === 'datetime') return datetimeBucket(sqlExpr, n, rangeUnit, timezone);
  const bucket = dateBucket(sqlExpr, n, rangeUnit);
  return { group: bucket, output: bucket };
}
