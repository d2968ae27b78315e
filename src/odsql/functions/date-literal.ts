// Date literals (date'...'): ISO-style text -> the granule it denotes, naive forms local to the
// request time zone (each dialect writes the granule: dialect/duckdb/date.ts).
import { QueryLangError } from '../errors.js';
import type { DateLikeType } from '../types.js';

/** The precision a date literal is written with; a fraction of a second of any length is 'millisecond'. */
export type DateGranularity = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'millisecond';

/**
 * A parsed date literal as the granule [start, end) it denotes. `type` is 'date' (dates) for the
 * forms without a time of day and 'datetime' (instants) for the others.
 *
 * Comparisons with a literal cover its whole granule (supplement: `t > date'2026-08-29'`
 * excludes the whole 29th): `x > lit` is `x >= end`, `x <= lit` is `x < end`, `x = lit` is
 * `x >= start AND x < end`, `x < lit` is `x < start`, `x >= lit` is `x >= start`. A date granule
 * compared with a datetime field starts at the local midnight of the request time zone.
 */
export interface DateLiteral {
  type: DateLikeType;
  granularity: DateGranularity;
  /** The granule as read, for each dialect to write. */
  reading: DateReading;
}

/**
 * A date granule: its first day and the next granule's ('YYYY-MM-DD'); a datetime granule: the
 * wall clock time of its start ('YYYY-MM-DD HH:MM:SS[.ffffff]'), its offset ('+HH:MM', null:
 * local to the request's time zone) and its length.
 */
export type DateReading =
  | { readonly kind: 'date'; readonly start: string; readonly end: string }
  | {
      readonly kind: 'datetime';
      readonly wall: string;
      readonly offset: string | null;
      readonly micros: number;
    };

/** year[-month[-day[Thour[:minute[:second[.fraction]]][offset]]]], with `/` or `-` between the date's parts. */
const LITERAL =
  /^(?<year>\d{4})(?:(?<sep>[-/])(?<month>\d{1,2})(?:\k<sep>(?<day>\d{1,2})(?:[T ](?<hour>\d{1,2})(?::(?<minute>\d{2})(?::(?<second>\d{2})(?:[.,](?<fraction>\d{1,6}))?)?)?(?<offset>Z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/i;

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  fraction: string;
}

/** Length in microseconds of the granules a datetime literal can have. */
const GRANULE_MICROS = {
  hour: 3_600_000_000,
  minute: 60_000_000,
  second: 1_000_000,
} as const satisfies Partial<Record<DateGranularity, number>>;

/** Number of days of a month (1-12) of a proleptic Gregorian year. */
export function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
const dateText = (y: number, m: number, d: number): string => `${pad(y, 4)}-${pad(m)}-${pad(d)}`;

/** The first day after a date granule (a year, a month or a day), as 'YYYY-MM-DD'. */
function granuleEnd(parts: Parts, granularity: DateGranularity): string {
  const { year, month, day } = parts;
  if (granularity === 'year') return dateText(year + 1, 1, 1);
  if (granularity === 'month' || day === daysInMonth(year, month)) {
    return month === 12 ? dateText(year + 1, 1, 1) : dateText(year, month + 1, 1);
  }
  return dateText(year, month, day + 1);
}

function granularityOf(groups: Record<string, string | undefined>): DateGranularity {
  if (groups.month === undefined) return 'year';
  if (groups.day === undefined) return 'month';
  if (groups.hour === undefined) return 'day';
  if (groups.minute === undefined) return 'hour';
  if (groups.second === undefined) return 'minute';
  return groups.fraction === undefined ? 'second' : 'millisecond';
}

/** The offset as '+HH:MM', or null when it is out of range. */
function offsetText(offset: string): string | null {
  if (offset.toUpperCase() === 'Z') return '+00:00';
  const digits = offset.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || '0');
  return hours <= 18 && minutes <= 59 ? `${offset[0]}${pad(hours)}:${pad(minutes)}` : null;
}

function isValid(p: Parts): boolean {
  return (
    p.year >= 1 &&
    p.month >= 1 &&
    p.month <= 12 &&
    p.day >= 1 &&
    p.day <= daysInMonth(p.year, p.month) &&
    p.hour <= 23 &&
    p.minute <= 59 &&
    p.second <= 59
  );
}

/** A datetime literal's granule: offset forms are absolute, naive ones local to the request's zone. */
function datetimeReading(parts: Parts, granularity: DateGranularity, offset: string | null): DateReading {
  const { year, month, day, hour, minute, second, fraction } = parts;
  const wall = `${dateText(year, month, day)} ${pad(hour)}:${pad(minute)}:${pad(second)}${fraction ? `.${fraction}` : ''}`;
  // A fraction's granule is one unit of its last digit: '.5' spans 100 ms, '.123456' 1 µs.
  const micros =
    granularity === 'millisecond'
      ? 10 ** (6 - fraction.length)
      : GRANULE_MICROS[granularity as keyof typeof GRANULE_MICROS];
  return { kind: 'datetime', wall, offset, micros };
}

/**
 * Parses the text of a date literal (year alone, year-month, date, date and time with optional
 * seconds, fraction and `Z` or `±HH:MM` offset; `/` may separate the date's parts). Throws
 * QueryLangError `Invalid date literal: <text>` for anything else or an impossible date. The
 * reading is the same in every time zone (`_timezone` is not read: a dialect places naive forms in
 * the request's zone when it writes the granule).
 */
export function parseDateLiteral(text: string, _timezone?: string): DateLiteral {
  const invalid = new QueryLangError(`Invalid date literal: ${text}`);
  const groups = LITERAL.exec(text.trim())?.groups;
  if (!groups) throw invalid;
  const number = (value: string | undefined, fallback: number): number =>
    value === undefined ? fallback : Number(value);
  const parts: Parts = {
    year: Number(groups.year),
    month: number(groups.month, 1),
    day: number(groups.day, 1),
    hour: number(groups.hour, 0),
    minute: number(groups.minute, 0),
    second: number(groups.second, 0),
    fraction: groups.fraction ?? '',
  };
  const offset = groups.offset === undefined ? null : offsetText(groups.offset);
  if (!isValid(parts) || (groups.offset !== undefined && offset === null)) throw invalid;
  const granularity = granularityOf(groups);
  if (groups.hour === undefined) {
    const start = dateText(parts.year, parts.month, parts.day);
    const end = granuleEnd(parts, granularity);
    return { type: 'date', granularity, reading: { kind: 'date', start, end } };
  }
  return { type: 'datetime', granularity, reading: datetimeReading(parts, granularity, offset) };
}
