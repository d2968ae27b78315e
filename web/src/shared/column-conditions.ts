// A column's filter as the ODSQL condition the URL keeps (`where.<field>`) and the API applies,
// and back: text contains (LIKE, the API's case-insensitive substring match) or equals, a number
// range, a date range. Identifiers are backquoted and strings escaped by url-state's quoting, so
// any field name and any typed text make one valid condition.
import { boundsCondition, odsqlField, odsqlString, type FilterState, type Pick } from './url-state.js';

/** What a column filter asks, as its form holds it ('' for an open end). */
export type ColumnFilter =
  | { readonly kind: 'contains'; readonly value: string }
  | { readonly kind: 'equals'; readonly value: string }
  | { readonly kind: 'range'; readonly min: string; readonly max: string }
  | { readonly kind: 'dates'; readonly from: string; readonly to: string };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A number as ODSQL writes it, or null for text that is not one. */
function numberLiteral(text: string): string | null {
  const value = Number(text.trim());
  return text.trim() !== '' && Number.isFinite(value) ? String(value) : null;
}

/**
 * The condition of a filter on `field`, or null when the filter asks nothing. Dates are the
 * API's day-granular literals: `<= date'2001-02-03'` keeps the whole 3rd.
 */
export function conditionOf(field: string, filter: ColumnFilter): string | null {
  if (filter.kind === 'range')
    return boundsCondition(field, numberLiteral(filter.min), numberLiteral(filter.max));
  if (filter.kind === 'dates') {
    const day = (text: string) => (DAY.test(text) ? `date'${text}'` : null);
    return boundsCondition(field, day(filter.from), day(filter.to));
  }
  if (filter.value === '') return null;
  return `${odsqlField(field)} ${filter.kind === 'contains' ? 'like' : '='} ${odsqlString(filter.value)}`;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const STRING = String.raw`"((?:[^"\\]|\\.)*)"`;
const unescape = (text: string) => text.replace(/\\(.)/g, '$1');

/** The bounds of `name >= low and name <= high` (either alone), each matching `value`; or null. */
function readBounds(name: string, value: string, condition: string): [string, string] | null {
  const found: [string, string] = ['', ''];
  const parts = condition.split(' and ');
  const bound = new RegExp(`^${name} (>=|<=) ${value}$`);
  for (const part of parts) {
    const match = bound.exec(part);
    const side = match?.[1] === '>=' ? 0 : 1;
    if (!match || found[side] !== '' || (side === 0 && found[1] !== '')) return null;
    found[side] = match[2]!;
  }
  return parts.length <= 2 ? found : null;
}

/** The filter a condition written by conditionOf stands for, or null for any other text. */
export function readCondition(field: string, condition: string): ColumnFilter | null {
  const name = escapeRegExp(odsqlField(field));
  const text = new RegExp(`^${name} (like|=) ${STRING}$`).exec(condition);
  if (text) return { kind: text[1] === 'like' ? 'contains' : 'equals', value: unescape(text[2]!) } as const;
  const numbers = readBounds(name, '(-?\\d[\\d.e+-]*)', condition);
  if (numbers) return { kind: 'range', min: numbers[0], max: numbers[1] };
  const days = readBounds(name, "date'(\\d{4}-\\d{2}-\\d{2})'", condition);
  return days ? { kind: 'dates', from: days[0], to: days[1] } : null;
}

/** A day of a condition as the visitor's locale writes it. */
const dayText = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

const numberText = (text: string) => Number(text).toLocaleString(undefined);

/** A filter in plain words ("Delay from 10 to 20"), or null for a condition it cannot read. */
export function describeCondition(label: string, field: string, condition: string): string | null {
  const filter = readCondition(field, condition);
  if (!filter) return null;
  if (filter.kind === 'contains' || filter.kind === 'equals') {
    return `${label} ${filter.kind === 'contains' ? 'contains' : 'is'} “${filter.value}”`;
  }
  const [low, high, show] =
    filter.kind === 'range' ? [filter.min, filter.max, numberText] : [filter.from, filter.to, dayText];
  if (low && high) return `${label} from ${show(low)} to ${show(high)}`;
  return low ? `${label} from ${show(low)}` : `${label} up to ${show(high)}`;
}

/** The state with `field`'s column filter set to `condition` (null: removed), back on page 1. */
export function withCondition(state: FilterState, field: string, condition: string | null): FilterState {
  const others = state.conditions.filter(([name]) => name !== field);
  const conditions: Pick[] = condition === null ? others : [...others, [field, condition]];
  return { ...state, conditions, page: 1 };
}
