// Instants on the request time zone's wall clock in DuckDB's SQL. DuckDB's ICU `timezone()` costs
// many times more a row than adding an offset chosen by a few integer comparisons (docs/odsql.md,
// Time zones): inside the window of functions/zone-offsets.ts the offset
// is arithmetic; instants outside it still go through ICU, so every answer stays exact.
import {
  UTC_ZONES,
  WINDOW_END_US,
  WINDOW_START_US,
  zoneOffsets,
  type ZoneOffsets,
} from '../../functions/zone-offsets.js';
import { quoteString } from '../../../sql/quoting.js';

/** SQL choosing the offset (µs) of `epochSql` by binary search over the window's changes. */
function offsetTree(epochSql: string, zone: ZoneOffsets, low: number, high: number): string {
  if (low === high) return String(zone.offsets[low]);
  const middle = (low + high + 1) >> 1;
  return `CASE WHEN ${epochSql} < ${zone.starts[middle]} THEN ${offsetTree(epochSql, zone, low, middle - 1)} ELSE ${offsetTree(epochSql, zone, middle, high)} END`;
}

/**
 * TIMESTAMP SQL of the wall-clock time of the instant `instantSql` in `zone`, by arithmetic
 * inside the window and ICU outside it. `icu` is the ICU spelling, used past the window and
 * when the instant's SQL is long (the arithmetic repeats it once per change of offset).
 */
function wallClockSql(instantSql: string, zone: string, icu: string): string {
  const epoch = `epoch_us(${instantSql})`;
  if (UTC_ZONES.has(zone)) return `make_timestamp(${epoch})`;
  const offsets = zoneOffsets(zone);
  if (offsets.starts.length > 1 && instantSql.length > 64) return icu;
  const offset = offsetTree(epoch, offsets, 0, offsets.starts.length - 1);
  return `CASE WHEN ${epoch} >= ${WINDOW_START_US} AND ${epoch} < ${WINDOW_END_US} THEN make_timestamp(${epoch} + ${offset}) ELSE ${icu} END`;
}

/** SQL of `instantSql` within the window (epoch_us of it between the window's bounds). */
export function inWindowSql(instantSql: string): string {
  const epoch = `epoch_us(${instantSql})`;
  return `${epoch} >= ${WINDOW_START_US} AND ${epoch} < ${WINDOW_END_US}`;
}

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
