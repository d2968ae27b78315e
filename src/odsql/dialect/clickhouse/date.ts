// ClickHouse's spelling of dates: literals as granules, date parts on the request time zone's wall
// clock, and the output text of dates and instants. ClickHouse 18.16 holds instants in whole
// seconds (DateTime) and writes day 0 (1970-01-01) as '0000-00-00'; formatDateTime ignores a
// DateTime's zone and has no %z, so the wall clock is toString(t, zone) and the offset is
// computed from it.
import { parseDateLiteral, type DateLikeType, type DateReading } from '../../functions/date.js';
import { DATE_PARTS, datelike } from '../../functions/temporal.js';
import { QueryLangError } from '../../errors.js';
import type { FunctionSpelling, Presenter } from '../dialect.js';
import { quoteString } from '../../../sql/clickhouse-quoting.js';

const PART_FUNCTIONS = {
  year: 'toYear',
  month: 'toMonth',
  day: 'toDayOfMonth',
  hour: 'toHour',
  minute: 'toMinute',
  second: 'toSecond',
} as const satisfies Record<(typeof DATE_PARTS)[number], string>;

export const DATES: ReadonlyMap<string, FunctionSpelling> = new Map<string, FunctionSpelling>(
  DATE_PARTS.map((part): [string, FunctionSpelling] => [
    part,
    ([x], ctx) => {
      // A date's hour, minute and second are 0; null stays null.
      if (datelike(x) === 'date') {
        return part === 'year' || part === 'month' || part === 'day'
          ? `${PART_FUNCTIONS[part]}(${x!.sql})`
          : `if(isNull(${x!.sql}), NULL, 0)`;
      }
      return `${PART_FUNCTIONS[part]}(toTimeZone(${x!.sql}, ${quoteString(ctx.timezone)}))`;
    },
  ]),
);

/** An instant of a datetime granule: a naive wall clock is read in `timezone`. */
function instantSql(reading: Extract<DateReading, { kind: 'datetime' }>, timezone: string): string {
  if (reading.micros % 1_000_000 !== 0 || reading.wall.includes('.')) {
    throw new QueryLangError(
      "A date literal with a fraction of a second is not available on this dataset's engine (ClickHouse)",
    );
  }
  if (reading.offset === null) return `toDateTime(${quoteString(reading.wall)}, ${quoteString(timezone)})`;
  const utc = new Date(`${reading.wall.replace(' ', 'T')}${reading.offset}`).toISOString();
  return `toDateTime(${quoteString(utc.slice(0, 19).replace('T', ' '))}, 'UTC')`;
}

/**
 * SQL of a date literal's granule [start, end) comparable with a field of `fieldType`: a date
 * granule compared with instants starts at the local midnight of `timezone`; an instant compared
 * with dates is the local date it falls on, rounded up so that `< end` keeps a partial day.
 */
export function dateGranule(
  text: string,
  fieldType: DateLikeType | null,
  timezone: string,
): { start: string; end: string } {
  const { reading } = parseDateLiteral(text, timezone);
  const zone = quoteString(timezone);
  if (reading.kind === 'date') {
    if ((fieldType ?? 'date') === 'date') {
      return { start: `toDate(${quoteString(reading.start)})`, end: `toDate(${quoteString(reading.end)})` };
    }
    return {
      start: `toDateTime(${quoteString(`${reading.start} 00:00:00`)}, ${zone})`,
      end: `toDateTime(${quoteString(`${reading.end} 00:00:00`)}, ${zone})`,
    };
  }
  const start = instantSql(reading, timezone);
  const end = `(${start} + ${reading.micros / 1_000_000})`;
  if ((fieldType ?? 'datetime') === 'datetime') return { start, end };
  const toDate = (instant: string) => `toDate(${instant} + 86399, ${zone})`;
  return { start: toDate(start), end: toDate(end) };
}

/** A date's text; day 0 is written 1970-01-01, not ClickHouse's '0000-00-00'. */
export const presentDate: Presenter = (sql) => `if(${sql} = toDate(0), '1970-01-01', toString(${sql}))`;

/** Two digits of a number from 0 to 99. */
const twoDigits = (sql: string): string => `substring(toString(100 + ${sql}), 2, 2)`;

/** An instant as 'YYYY-MM-DDTHH:MM:SS+HH:MM' on the wall clock of the request's time zone. */
export const presentDatetime: Presenter = (sql, ctx) => {
  const wall = `toString(${sql}, ${quoteString(ctx.timezone)})`;
  const offset = `(toInt64(toDateTime(${wall}, 'UTC')) - toInt64(${sql}))`;
  const sign = `if(${offset} < 0, '-', '+')`;
  const hours = twoDigits(`intDiv(abs(${offset}), 3600)`);
  const minutes = twoDigits(`intDiv(abs(${offset}) % 3600, 60)`);
  const text = `concat(replaceOne(${wall}, ' ', 'T'), ${sign}, ${hours}, ':', ${minutes})`;
  // ClickHouse writes second 0 as '0000-00-00 00:00:00' in UTC.
  return ctx.timezone === 'UTC'
    ? `if(toInt64(${sql}) = 0, '1970-01-01T00:00:00+00:00', concat(replaceOne(${wall}, ' ', 'T'), '+00:00'))`
    : text;
};
