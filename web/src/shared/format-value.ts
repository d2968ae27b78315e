// A record value as text for a table cell or the record view: numbers and dates as the visitor's
// locale writes them (the raw value kept for a title), anything else as the API wrote it.
import type { Field } from './types.js';

/** Text for any JSON value of a record: points as "lat, lon", lists joined, objects as JSON. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(formatValue).join(', ');
  if (typeof value === 'object') {
    const point = value as { lon?: unknown; lat?: unknown };
    if (typeof point.lon === 'number' && typeof point.lat === 'number' && Object.keys(value).length === 2) {
      return `${point.lat}, ${point.lon}`;
    }
    return JSON.stringify(value);
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Formats made once: Intl formatters are slow to create and a page has 20 rows of them. */
const NUMBER = new Intl.NumberFormat(undefined, { maximumFractionDigits: 6 });
const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const DATETIME = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});
const DATETIME_SECONDS = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'medium',
  timeZone: 'UTC',
});

/** An ISO date or timestamp of the API: its written parts (the clock of the offset it carries). */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?/;

/**
 * The time the API wrote, as a Date to format in UTC: the wall clock of the answer (the API's
 * `timezone`, UTC by default) is shown as written, never moved to the visitor's zone, so a cell
 * reads as the export and the API do.
 */
function writtenTime(text: string): { date: Date; seconds: boolean } | null {
  const parts = ISO.exec(text);
  if (!parts) return null;
  const [y = 0, mo = 1, d = 1, h = 0, mi = 0, s = 0] = parts.slice(1).map((part) => Number(part ?? 0));
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return Number.isNaN(date.getTime()) ? null : { date, seconds: s !== 0 };
}

const NUMERIC = new Set(['int', 'double', 'decimal']);

/** Whether a field's values are numbers (a table aligns them right). */
export function isNumericField(field: Field): boolean {
  return NUMERIC.has(field.type);
}

/** A value of `field` as the visitor reads it: "1,234.5", "Jan 1, 2001", "Jan 1, 2001, 6:24 AM". */
export function formatCell(value: unknown, field: Field): string {
  if (typeof value === 'number' && NUMERIC.has(field.type)) return NUMBER.format(value);
  if (typeof value === 'string' && (field.type === 'date' || field.type === 'datetime')) {
    const time = writtenTime(value);
    if (!time) return value;
    if (field.type === 'date') return DATE.format(time.date);
    return (time.seconds ? DATETIME_SECONDS : DATETIME).format(time.date);
  }
  return formatValue(value);
}
