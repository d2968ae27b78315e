// Registry entries of the date and time functions (their DuckDB spelling: dialect/duckdb/date.ts),
// and the adapters the analyzer and compiler use for date literals.
import { quoteString } from '../dialect/duckdb/quoting.js';
import { QueryLangError } from '../errors.js';
import { ALL_CLAUSES } from '../types.js';
import { compileDateFormat, compileNow, parseDateLiteral, type DateLikeType } from './date.js';
import { fixed, repeated, type Arg, type FunctionEntry } from './registry.js';

export const DATE_PARTS = ['year', 'month', 'day', 'hour', 'minute', 'second'] as const;

/** The type (date or datetime) a date literal denotes; throws QueryLangError when it is invalid. */
export function dateLiteralType(text: string, timezone: string): DateLikeType {
  return parseDateLiteral(text, timezone).type;
}

/**
 * SQL of a date literal's granule [start, end) as values comparable with a field of `fieldType`
 * (DATE for date fields, TIMESTAMPTZ for datetime fields); `null`: the literal's own type.
 */
export function dateGranule(
  text: string,
  fieldType: DateLikeType | null,
  timezone: string,
): { start: string; end: string } {
  const literal = parseDateLiteral(text, timezone);
  const target = fieldType ?? literal.type;
  if (target === literal.type) return { start: literal.sql, end: literal.endSql };
  const convert = target === 'date' ? toDate : toInstant;
  return { start: convert(literal.sql, timezone), end: convert(literal.endSql, timezone) };
}

/** A DATE as the instant of its local midnight in the request's time zone. */
const toInstant = (dateSql: string, timezone: string): string =>
  `timezone(${quoteString(timezone)}, CAST(${dateSql} AS TIMESTAMP))`;

/** An instant as the local date it falls on, rounded up so that `< end` keeps a partial day. */
const toDate = (instantSql: string, timezone: string): string =>
  `CAST(date_trunc('day', timezone(${quoteString(timezone)}, ${instantSql}) + INTERVAL '1 day' - INTERVAL '1 microsecond') AS DATE)`;

/** now()'s named arguments: `days=-1` -> { name: 'days', value: -1 }. */
export function namedValues(args: readonly Arg[]): { name: string; value: number }[] {
  return args.map(({ node }) => {
    if (node.kind !== 'comparison' || node.left.kind !== 'field' || node.right.kind !== 'number') {
      throw new QueryLangError('now() expects named integers such as days=-1');
    }
    return { name: node.left.name.toLowerCase(), value: node.right.value };
  });
}

export const datelike = (arg: Arg | undefined): DateLikeType => (arg?.type === 'date' ? 'date' : 'datetime');
export const formatOf = (arg: Arg | undefined): string => (arg?.node.kind === 'string' ? arg.node.value : '');

export const TEMPORAL_FUNCTIONS: readonly FunctionEntry[] = [
  ...DATE_PARTS.map((part): FunctionEntry => ({
    name: part,
    kind: 'scalar',
    clauses: ALL_CLAUSES,
    params: fixed('datelike'),
    arity: '1',
    returns: () => 'int',
  })),
  {
    name: 'now',
    kind: 'scalar',
    clauses: ['select', 'where', 'order_by'],
    params: repeated('named_integer', 0),
    arity: 'named integer',
    // The builders validate their arguments: run them during analysis so errors name the clause.
    check: (args) => void compileNow(namedValues(args), 'UTC'),
    returns: () => 'datetime',
  },
  {
    name: 'date_format',
    kind: 'scalar',
    clauses: ALL_CLAUSES,
    params: fixed('datelike', 'string'),
    arity: '2',
    check: ([x, format]) => void compileDateFormat('NULL', formatOf(format), datelike(x), 'en', 'UTC'),
    returns: () => 'text',
  },
];
