// A time zone's UTC offsets over the years most data falls in, from Intl, once per zone: what an
// engine needs to read instants on a zone's wall clock by plain arithmetic instead of its time
// zone library (DuckDB's spelling: dialect/duckdb/wall-clock.ts).

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

/** Zones that are UTC at every instant, in IANA's names and DuckDB's. */
export const UTC_ZONES: ReadonlySet<string> = new Set([
  'UTC',
  'Etc/UTC',
  'Etc/GMT',
  'GMT',
  'Etc/UCT',
  'UCT',
  'Zulu',
]);

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
