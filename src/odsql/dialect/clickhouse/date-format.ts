// date_format() in ClickHouse 18.16's SQL: a pattern's terms (dialect/date-format.ts) as one
// concat() of the wall clock's numbers and names. ClickHouse's formatDateTime is not used: it
// ignores a DateTime's zone and has no unpadded forms. Instants are whole seconds (DateTime), so
// the fraction of a second is zeros, as DuckDB writes it for the same stored values.
import { DATE_NAMES, type Lang } from '../../functions/date-names.js';
import { parseDateFormat } from '../../functions/date-format.js';
import type { DateLikeType } from '../../types.js';
import { quoteString } from '../../../sql/clickhouse-quoting.js';
import { formatTerms, type DateFormatSpelling, type WallPart } from '../date-format.js';

/** ClickHouse's functions of each wall-clock number (Monday is day 1 of toDayOfWeek). */
export const PARTS = {
  year: 'toYear',
  month: 'toMonth',
  day: 'toDayOfMonth',
  hour: 'toHour',
  minute: 'toMinute',
  second: 'toSecond',
  millisecond: 'toSecond',
  dayOfYear: 'toDayOfYear',
  isoWeek: 'toISOWeek',
  isoYear: 'toISOYear',
  isoDayOfWeek: 'toDayOfWeek',
} as const satisfies Record<WallPart, string>;

/** Parts a Date has not: 0, and null for null. */
const TIME_PARTS: ReadonlySet<WallPart> = new Set(['hour', 'minute', 'second', 'millisecond']);

/** The instant of a date's local midnight in `zone` (quoted). */
const midnight = (x: string, zone: string): string =>
  `toDateTime(concat(toString(${x}), ' 00:00:00'), ${zone})`;

const SPELLING: DateFormatSpelling = {
  part: (part, v, type) => {
    if (type === 'date' && TIME_PARTS.has(part)) return `(toDayOfMonth(${v}) * 0)`;
    return part === 'millisecond' ? `(toSecond(${v}) * 0)` : `${PARTS[part]}(${v})`;
  },
  // 18.16 has no leftPad: a number below 10^digits is cut out of 10^digits + n. A Nullable
  // condition is refused by if(), hence assumeNotNull (a null gives null all the same).
  padded: (sql, digits) => {
    if (digits <= 1) return `toString(${sql})`;
    const power = 10 ** digits;
    return `if(assumeNotNull(${sql}) < ${power}, substring(toString(${power} + ${sql}), 2, ${digits}), toString(${sql}))`;
  },
  pick: (texts, index) => `arrayElement([${texts.map(quoteString).join(', ')}], ${index})`,
  intDiv: (sql, by) => `intDiv(${sql}, ${by})`,
  offsetSeconds: (x, v, type, timezone) => {
    const zone = quoteString(timezone);
    const instant = type === 'date' ? midnight(x, zone) : x;
    const wall = type === 'date' ? midnight(x, "'UTC'") : `toDateTime(toString(${v}), 'UTC')`;
    return `(toInt64(${wall}) - toInt64(${instant}))`;
  },
  directive: () => null,
};

/**
 * String SQL of a date or datetime formatted with an ODSQL date_format pattern, as DuckDB's
 * compileDateFormat writes it: datetimes on the wall clock of `timezone`, names in `lang`, null
 * for null. An unknown letter run throws QueryLangError.
 */
export function compileDateFormat(
  sqlExpr: string,
  format: string,
  type: DateLikeType,
  lang: Lang,
  timezone: string,
): string {
  const value = type === 'date' ? sqlExpr : `toTimeZone(${sqlExpr}, ${quoteString(timezone)})`;
  const subject = { x: sqlExpr, v: value, type, names: DATE_NAMES[lang], timezone };
  const terms = formatTerms(parseDateFormat(format), subject, SPELLING);
  const sqls = terms.map((term) => ('sql' in term ? term.sql : quoteString('text' in term ? term.text : '')));
  const text = sqls.length === 0 ? "''" : sqls.length === 1 ? sqls[0]! : `concat(${sqls.join(', ')})`;
  // Without any symbol the text does not depend on the value: keep null for null all the same.
  return terms.every((term) => 'text' in term) ? `if(isNull(${sqlExpr}), NULL, ${text})` : text;
}
