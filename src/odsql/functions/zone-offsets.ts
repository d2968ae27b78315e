// A time zone's UTC offsets as plain arithmetic: DuckDB's ICU `timezone()` costs about 250 ns a
// row, so converting 3M instants takes ~0.8 s, while adding an offset chosen by a few integer
// comparisons takes ~0.05 s. The offsets come from Intl, once per zone, for the years most data
// falls in; instants outside that window still go through ICU, so every answer stays exact.

/** The window of exact offsets: 1970-01-01 to 2038-01-01 UTC, in epoch microseconds. */
export const WINDOW_START_US = 0;
export const WINDOW_END_US = Date.UTC(2038, 0, 1) * 1000;

const WEEK_MS = 7 * 86_400_000;
const MINUTE_MS = 60_000;

/** The offsets of a zone over the window: `offsets[i]` applies from `starts[i]` (epoch µs). */
export interface ZoneOffsets {
  readonly starts: readonly number[];
  readonly offsets: readonly number[];
}

const cache = new Map<string, ZoneOffsets>();

function offsetReader(zone: string): (ms: number) => number {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  return (ms) => {
    const parts: Record<string, number> = {};
    for (const part of format.formatToParts(ms)) parts[part.type] = Number(part.value);
    const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day, parts.hour, parts.minute, parts.second);
    return wall - Math.floor(ms / 1000) * 1000;
  };
}

/**
 * The offsets of an IANA zone over the window, sampled weekly and each change located to the
 * minute (zones change offset on whole minutes). Two changes within one week are both found;
 * a change undone within the same week would not be (no zone has had one since 1970).
 */
export function zoneOffsets(zone: string): ZoneOffsets {
  const known = cache.get(zone);
  if (known) return known;
  const offsetAt = offsetReader(zone);
  const end = WINDOW_END_US / 1000;
  let cursor = WINDOW_START_US / 1000;
  let current = offsetAt(cursor);
  const starts = [WINDOW_START_US];
  const offsets = [current * 1000];
  while (cursor < end) {
    const next = Math.min(cursor + WEEK_MS, end);
    if (offsetAt(next) === current) {
      cursor = next;
      continue;
    }
    let low = cursor; // still `current`
    let high = next; // no longer
    while (high - low > MINUTE_MS) {
      const middle = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS;
      if (offsetAt(middle) === current) low = middle;
      else high = middle;
    }
    current = offsetAt(high);
    starts.push(high * 1000);
    offsets.push(current * 1000);
    cursor = high;
  }
  const result = { starts, offsets };
  cache.set(zone, result);
  return result;
}

/** SQL choosing the offset (µs) of `epochSql` by binary search over the window's changes. */
function offsetTree(epochSql: string, zone: ZoneOffsets, low: number, high: number): string {
  if (low === high) return String(zone.offsets[low]);
  const middle = (low + high + 1) >> 1;
  return `CASE WHEN ${epochSql} < ${zone.starts[middle]} THEN ${offsetTree(epochSql, zone, low, middle - 1)} ELSE ${offsetTree(epochSql, zone, middle, high)} END`;
}

/** Zones that are UTC at every instant, in IANA's names and DuckDB's. */
const UTC_ZONES: ReadonlySet<string> = new Set([
  'UTC',
  'Etc/UTC',
  'Etc/GMT',
  'GMT',
  'Etc/UCT',
  'UCT',
  'Zulu',
]);

/**
 * TIMESTAMP SQL of the wall-clock time of the instant `instantSql` in `zone`, by arithmetic
 * inside the window and ICU outside it. `icu` is the ICU spelling, used past the window and
 * when the instant's SQL is long (the arithmetic repeats it once per change of offset).
 */
export function wallClockSql(instantSql: string, zone: string, icu: string): string {
  const epoch = `epoch_us(${instantSql})`;
  if (UTC_ZONES.has(zone)) return `make_timestamp(${epoch})`;
  const offsets = zoneOffsets(zone);
  if (offsets.starts.length > 1 && instantSql.length > 64) return icu;
  const offset = offsetTree(epoch, offsets, 0, offsets.starts.length - 1);
  return `CASE WHEN ${epoch} >= ${WINDOW_START_US} AND ${epoch} < ${WINDOW_END_US} THEN make_timestamp(${epoch} + ${offset}) ELSE ${icu} END`;
}

/** A zone's offset when it never changes: at every instant (UTC zones), or within the window. */
export interface SteadyOffset {
  readonly offsetUs: number;
  /** True when the offset holds at every instant, not only within the window. */
  readonly always: boolean;
}

/** The zone's one offset, when it has one: UTC zones always, other zones without DST since 1970. */
export function steadyOffset(zone: string): SteadyOffset | null {
  if (UTC_ZONES.has(zone)) return { offsetUs: 0, always: true };
  const { offsets } = zoneOffsets(zone);
  return offsets.length === 1 ? { offsetUs: offsets[0]!, always: false } : null;
}

/** SQL of `instantSql` within the window (epoch_us of it between the window's bounds). */
export function inWindowSql(instantSql: string): string {
  const epoch = `epoch_us(${instantSql})`;
  return `${epoch} >= ${WINDOW_START_US} AND ${epoch} < ${WINDOW_END_US}`;
}
