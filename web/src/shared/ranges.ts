// Range filters of the sidebar: a date range (`q.timerange.<field>`, as the public service's pages
// write their time-range filter) or a number range (`q.range.<field>`), each written in the URL as
// the v1 query `field:[from TO to]` (bounds inclusive, a date standing for its whole day, `*` for
// an open end) and sent to the API as an ODSQL `where` of its own. Also the histogram's bar width
// chosen from the data's span.

export type RangeKind = 'date' | 'number';

/** One range filter: `from` and `to` as typed (YYYY-MM-DD for dates), '' for an open end. */
export interface RangeFilter {
  readonly kind: RangeKind;
  readonly field: string;
  readonly from: string;
  readonly to: string;
}

/** The URL parameter prefix of each kind. */
export const RANGE_PREFIX = { date: 'q.timerange.', number: 'q.range.' } as const satisfies Record<
  RangeKind,
  string
>;

const BOUND = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  number: /^-?\d+(\.\d+)?$/,
} as const satisfies Record<RangeKind, RegExp>;

/** The URL value of a range: the v1 query `field:[from TO to]`, `*` for an open end. */
export function rangeQuery(range: RangeFilter): string {
  return `${range.field}:[${range.from || '*'} TO ${range.to || '*'}]`;
}

/** A range in words, after its field's label: "Departure from 2001-02-01 to 2001-02-14", "Delay at least 5". */
export function rangeText(range: RangeFilter, label: string): string {
  const { from, to } = range;
  if (from && to) return `${label} from ${from} to ${to}`;
  if (range.kind === 'date') return from ? `${label} from ${from} on` : `${label} up to ${to}`;
  return from ? `${label} at least ${from}` : `${label} at most ${to}`;
}

/** The range a URL parameter holds, or null when it is not one this page wrote (left out). */
export function readRange(name: string, value: string): RangeFilter | null {
  const kind = (Object.keys(RANGE_PREFIX) as RangeKind[]).find((k) => name.startsWith(RANGE_PREFIX[k]));
  if (!kind) return null;
  const field = name.slice(RANGE_PREFIX[kind].length);
  const match = /^(.+):\[(\S+) TO (\S+)\]$/.exec(value);
  if (!match || match[1] !== field) return null;
  const bound = (text: string): string | null => (text === '*' ? '' : BOUND[kind].test(text) ? text : null);
  const from = bound(match[2]!);
  const to = bound(match[3]!);
  if (from === null || to === null || (!from && !to)) return null;
  return { kind, field, from, to };
}

/** Whether a bound typed in an input is one (empty: an open end). */
export function isBound(kind: RangeKind, text: string): boolean {
  return text === '' || BOUND[kind].test(text);
}

/** A date histogram's bar width: its ODSQL group key, and how to step from one bar's start to the next. */
export interface DateStep {
  /** Bars by `noun` ("Records by week"). */
  readonly noun: string;
  /** Approximate length, to count the bars a span holds. */
  readonly ms: number;
  /** The group_by key over the backquoted field. */
  readonly key: (field: string) => string;
  /** The start of the next bar. */
  readonly next: (start: Date) => Date;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const addMs =
  (ms: number) =>
  (start: Date): Date =>
    new Date(start.getTime() + ms);
const addMonths =
  (months: number) =>
  (start: Date): Date =>
    new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + months, start.getUTCDate()));
const fixed = (noun: string, ms: number, width: string): DateStep => ({
  noun,
  ms,
  key: (field) => `range(${field}, ${width})`,
  next: addMs(ms),
});

/** Widths from an hour to a year; range() takes at most a month, so years group on year(). */
export const DATE_STEPS: readonly DateStep[] = [
  fixed('hour', HOUR, '1 hour'),
  fixed('3 hours', 3 * HOUR, '3 hour'),
  fixed('6 hours', 6 * HOUR, '6 hour'),
  fixed('12 hours', 12 * HOUR, '12 hour'),
  fixed('day', DAY, '1 day'),
  fixed('week', 7 * DAY, '1 week'),
  { noun: 'month', ms: 30.44 * DAY, key: (f) => `range(${f}, 1 month)`, next: addMonths(1) },
  { noun: 'year', ms: 365.25 * DAY, key: (f) => `year(${f})`, next: addMonths(12) },
];

/** Bars a histogram holds at most: past 60 they are too thin to point at in a 16rem sidebar. */
export const MAX_BARS = 60;

/** The narrowest step that cuts the span [lo, hi] into at most MAX_BARS bars (flights' six months: weeks). */
export function dateStep(lo: Date, hi: Date): DateStep {
  const span = hi.getTime() - lo.getTime();
  return DATE_STEPS.find((step) => span / step.ms < MAX_BARS) ?? DATE_STEPS[DATE_STEPS.length - 1]!;
}

/** The start of a bar from its group key as the API writes it: an ISO instant, or a year. */
export function barStart(key: unknown): Date | null {
  const date = typeof key === 'number' ? new Date(Date.UTC(key, 0, 1)) : new Date(String(key));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A day of the API's (UTC) calendar as a date input writes it. */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Bars of a number histogram at most (a width of 1, 2 or 5 times a power of ten). */
const MAX_NUMBER_BARS = 40;

/** The bar width of a number histogram over [lo, hi]: 1, 2 or 5 times a power of ten; whole for integers. */
export function numberWidth(lo: number, hi: number, integer: boolean): number {
  const rough = Math.max((hi - lo) / MAX_NUMBER_BARS, Number.EPSILON);
  const power = 10 ** Math.floor(Math.log10(rough));
  const width =
    [1, 2, 5, 10].map((m) => Number((m * power).toPrecision(12))).find((w) => w >= rough) ?? 10 * power;
  return integer ? Math.max(1, Math.round(width)) : width;
}

/** The lower bound of a number bar from its group key (`[0, 99]`, `0-0.5`, `-5--4.5`). */
export function numberBarStart(key: unknown): number | null {
  const match = /^\[?(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)/i.exec(String(key));
  return match ? Number(match[1]) : null;
}
