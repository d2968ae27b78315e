// Dates and datetimes in their output text (supplement 2) in DuckDB's SQL: 'YYYY-MM-DD', and ISO
// 8601 on the request time zone's wall clock with its offset.
import { steadyOffset } from '../../functions/zone-offsets.js';
import { inWindowSql, localTimestamp } from './wall-clock.js';

/** VARCHAR SQL of a date as 'YYYY-MM-DD'. */
export function presentDate(sqlExpr: string): string {
  return `strftime(${sqlExpr}, '%Y-%m-%d')`;
}

/** '+HH:MM' or '-HH:MM' of an offset in microseconds. */
function offsetText(offsetUs: number): string {
  const minutes = Math.abs(offsetUs) / 60_000_000;
  const pad = (n: number) => String(Math.floor(n)).padStart(2, '0');
  return `${offsetUs < 0 ? '-' : '+'}${pad(minutes / 60)}:${pad(minutes % 60)}`;
}

/**
 * VARCHAR SQL of an instant as 'YYYY-MM-DDTHH:MM:SS+HH:MM' on the wall clock of `timezone`,
 * with the offset in force at that instant (never 'Z'). The offset is the difference between
 * the local and the UTC reading of the same instant, so one time zone lookup serves both. A zone
 * with one offset (UTC at every instant, or one without DST within 1970-2037) writes it as
 * constant text in one strftime, cheaper than computing the offset per row
 * (bench/README.md, Measurements behind the code).
 */
export function presentDatetime(sqlExpr: string, timezone: string): string {
  const steady = steadyOffset(timezone);
  if (steady) {
    const shifted = steady.offsetUs === 0 ? '' : ` + ${steady.offsetUs}`;
    const text = `strftime(make_timestamp(epoch_us(${sqlExpr})${shifted}), '%Y-%m-%dT%H:%M:%S${offsetText(steady.offsetUs)}')`;
    if (steady.always) return text;
    return `CASE WHEN ${inWindowSql(sqlExpr)} THEN ${text} ELSE ${offsetPerRow(sqlExpr, timezone)} END`;
  }
  return offsetPerRow(sqlExpr, timezone);
}

/** presentDatetime with the offset computed for each instant. */
function offsetPerRow(sqlExpr: string, timezone: string): string {
  const local = localTimestamp(sqlExpr, timezone);
  const ahead = `epoch_us(${local}) - epoch_us(${sqlExpr})`;
  const behind = `epoch_us(${sqlExpr}) - epoch_us(${local})`;
  // Offsets are under a day, so formatting them as a time of day gives the padded HH:MM.
  const offset = `CASE WHEN ${behind} > 0 THEN strftime(make_timestamp(${behind}), '-%H:%M') ELSE strftime(make_timestamp(${ahead}), '+%H:%M') END`;
  return `(strftime(${local}, '%Y-%m-%dT%H:%M:%S') || ${offset})`;
}
