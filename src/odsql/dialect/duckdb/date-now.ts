// now() in DuckDB's SQL: the moves of its named parameters (functions/date-now.ts) on the wall
// clock of the request time zone.
import { nowSpec, SHIFT_MICROS, type NowSpec, type WeekdayMove } from '../../functions/date-now.js';
import { quoteString } from '../../../sql/quoting.js';
import { instantOf } from './wall-clock.js';

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
function setTimeSql(spec: NowSpec, local: string): string {
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
  const spec = nowSpec(named);
  if (named.length === 0) return reference;
  // One instant: ICU is cheap here, and localTimestamp's arithmetic, repeated for each component
  // read below, made SQL large enough to take DuckDB's planner a noticeable time
  // (bench/README.md, Measurements behind the code).
  const local = `timezone(${quoteString(timezone)}, ${reference})`;
  const moved = weekdaySql(spec.weekday, shiftedSql(spec, setTimeSql(spec, local)));
  return instantOf(moved, timezone);
}
