// range(<date field>, <n><unit>) in DuckDB's SQL: equal-width buckets (units: functions/date-range.ts)
// aligned on the request time zone's wall clock.
import { isCalendar, UNIT_MICROS, unitOf, type RangeUnit } from '../../functions/date-range.js';
import type { DateLikeType } from '../../types.js';
import { instantOf, localTimestamp } from './wall-clock.js';

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
