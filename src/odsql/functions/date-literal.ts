// Date literals (date'...'): ISO-style text -> SQL of the granule it denotes, naive forms read in the request time zone.
import { quoteString } from '../dialect/duckdb/quoting.js';
import { QueryLangError } from '../errors.js';
import type { DateLikeType } from '../types.js';
import { daysInMonth, instantOf } from './date-sql.js';

/** The precision a date literal is written with; a fraction of a second of any length is 'millisecond'. */
export type DateGranularity = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'millisecond';

/**
 * A parsed date literal as the granule [sql, endSql) it denotes. `type` is 'date' (DATE values)
 * for the forms without a time of day and 'datetime' (TIMESTAMPTZ values) for the others.
 *
 * Comparisons with a literal cover its whole granule (supplement: `t > date'2026-08-29'`
 * excludes the whole 29th): `x > lit` is `x >= endSql`, `x <= lit` is `x < endSql`,
 * `x = lit` is `x >= sql AND x < endSql`, `x < lit` is `x < sql`, `x >= lit` is `x >= sql`.
 * A date granule compared with a datetime field starts at the local midnight of the request
 * time zone.
 */
export interface DateLiteral {
  sql: string;
  type: DateLikeType;
  granularity: DateGranularity;
  endSql: string;
  /** The granule as read, for dialects other than DuckDB's to write. */
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

/** SQL of a datetime literal's granule: offset forms are absolute, naive ones local to `timezone`. */
function datetimeLiteral(
  parts: Parts,
  granularity: DateGranularity,
  offset: string | null,
  timezone: string,
): { sql: string; endSql: string; reading: DateReading } {
  const { year, month, day, hour, minute, second, fraction } = parts;
  const wall = `${dateText(year, month, day)} ${pad(hour)}:${pad(minute)}:${pad(second)}${fraction ? `.${fraction}` : ''}`;
  const sql =
    offset === null
      ? instantOf(`TIMESTAMP ${quoteString(wall)}`, timezone)
      : `TIMESTAMPTZ '${wall}${offset}'`;
  // A fraction's granule is one unit of its last digit: '.5' spans 100 ms, '.123456' 1 µs.
  const micros =
    granularity === 'millisecond'
      ? 10 ** (6 - fraction.length)
      : GRANULE_MICROS[granularity as keyof typeof GRANULE_MICROS];
  return {
    sql,
    endSql: `(${sql} + to_microseconds(${micros}))`,
    reading: { kind: 'datetime', wall, offset, micros },
  };
}

/**
 * Parses the text of a date literal (year alone, year-month, date, date and time with optional
 * seconds, fraction and `Z` or `±HH:MM` offset; `/` may separate the date's parts). Throws
 * QueryLangError `Invalid date literal: <text>` for anything else or an impossible date.
 */
export function parseDateLiteral(text: string, timezone: string): DateLiteral {
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
    return {
      sql: `DATE '${start}'`,
      endSql: `DATE '${end}'`,
      type: 'date',
      granularity,
      reading: { kind: 'date', start, end },
    };
  }
  return { ...datetimeLiteral(parts, granularity, offset, timezone), type: 'datetime', granularity };
}
