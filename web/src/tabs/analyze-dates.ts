// Dates on the analyze tab's X axis: the level a date field is grouped by when the URL names none
// (from the span of the records, so that the chart has about 10 to 60 groups), and the label of a
// group at its level (`2001`, `Jan 2001`, `12 Jan 2001`, `12 Jan 2001 14:00`), never the API's
// `2001-01-01T00:00:00+00:00`.

export const LEVELS = ['year', 'month', 'week', 'day', 'hour', 'minute'] as const;
export type Level = (typeof LEVELS)[number];

/** The number of groups a chart should have: fewer draws too coarse, more too thin. */
const FEWEST = 10;
const MOST = 60;

const HOUR_MS = 3_600_000;
const MS: Record<Exclude<Level, 'year' | 'month'>, number> = {
  week: 7 * 24 * HOUR_MS,
  day: 24 * HOUR_MS,
  hour: HOUR_MS,
  minute: 60_000,
};

/** How many groups `level` makes of the span from `low` to `high` (UTC instants). */
export function groupsAt(level: Level, low: Date, high: Date): number {
  const years = high.getUTCFullYear() - low.getUTCFullYear();
  if (level === 'year') return years + 1;
  if (level === 'month') return years * 12 + high.getUTCMonth() - low.getUTCMonth() + 1;
  return Math.floor((high.getTime() - low.getTime()) / MS[level]) + 1;
}

/**
 * The level giving 10 to 60 groups over the span (the coarsest such); when none does, the one
 * nearest that band (by ratio): 83 years stay by year, 4 years go by month, 6 months by week.
 * With no span (no record, no date) the coarsest level.
 */
export function levelForSpan(levels: readonly Level[], low: string | null, high: string | null): Level {
  const [first = 'year'] = levels;
  const from = low === null ? NaN : Date.parse(low);
  const to = high === null ? NaN : Date.parse(high);
  if (Number.isNaN(from) || Number.isNaN(to)) return first;
  let previous: { level: Level; groups: number } | null = null;
  for (const level of levels) {
    const groups = groupsAt(level, new Date(from), new Date(to));
    if (groups >= FEWEST) {
      if (groups <= MOST || previous === null) return level;
      return FEWEST / previous.groups <= groups / MOST ? previous.level : level;
    }
    previous = { level, groups };
  }
  return levels[levels.length - 1] ?? first;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `2001-01-12`, `2001-01-12T14:05:00+00:00`: the parts as written (the API's own clock). */
const ISO = /^(-?\d{4,})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d))?/;

/**
 * The label of a date group at its level: the year, `Jan 2001`, `12 Jan 2001` (days and weeks,
 * a week by its first day), `12 Jan 2001 14:00` (hours and minutes). Written from the API's text
 * as it stands, so a group reads the clock the API grouped on. Anything else is left as text.
 */
export function dateLabel(value: unknown, level: Level): string {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return String(value);
  const parts = ISO.exec(value);
  if (!parts) return value;
  const [, year, month = '01', day = '01', hour = '00', minute = '00'] = parts;
  const name = MONTHS[Number(month) - 1] ?? month;
  if (level === 'year') return year!;
  if (level === 'month') return `${name} ${year}`;
  const date = `${Number(day)} ${name} ${year}`;
  return level === 'hour' || level === 'minute' ? `${date} ${hour}:${minute}` : date;
}

/**
 * The labels of every group of `level` from the API's `first` to `last` group, so that a time
 * axis keeps its gaps (a year without records is a gap, not a neighbour); null past `most`.
 */
export function labelsBetween(first: unknown, last: unknown, level: Level, most: number): string[] | null {
  if (level === 'year') {
    if (typeof first !== 'number' || typeof last !== 'number' || last - first >= most) return null;
    return Array.from({ length: last - first + 1 }, (_, i) => String(first + i));
  }
  const from = typeof first === 'string' ? Date.parse(first) : NaN;
  const to = typeof last === 'string' ? Date.parse(last) : NaN;
  if (Number.isNaN(from) || Number.isNaN(to) || groupsAt(level, new Date(from), new Date(to)) > most)
    return null;
  const labels: string[] = [];
  for (const at = new Date(from); at.getTime() <= to;) {
    labels.push(dateLabel(at.toISOString(), level));
    if (level === 'month') at.setUTCMonth(at.getUTCMonth() + 1);
    else at.setTime(at.getTime() + MS[level]);
  }
  return labels;
}
