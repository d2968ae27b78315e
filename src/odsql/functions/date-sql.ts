// SQL pieces shared by the date builders: moving between instants and the request time zone's wall clock.
import { quoteString } from '../dialect/duckdb/quoting.js';
import { wallClockSql } from './zone-offsets.js';

/**
 * TIMESTAMP SQL of an instant (TIMESTAMPTZ) as read on the wall clock of `timezone`: offset
 * arithmetic where zone-offsets.ts knows the offsets, ICU elsewhere.
 */
export function localTimestamp(instantSql: string, timezone: string): string {
  return wallClockSql(instantSql, timezone, `timezone(${quoteString(timezone)}, ${instantSql})`);
}

/** TIMESTAMPTZ SQL of a wall-clock time (TIMESTAMP) of `timezone`. */
export function instantOf(localSql: string, timezone: string): string {
  return `timezone(${quoteString(timezone)}, ${localSql})`;
}

/** Number of days of a month (1-12) of a proleptic Gregorian year. */
export function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}
