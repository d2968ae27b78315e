// Registry entries of the date and time functions (their DuckDB spelling: dialect/duckdb/date*.ts),
// and the type the analyzer gives a date literal.
import { QueryLangError } from '../errors.js';
import { ALL_CLAUSES } from '../types.js';
import { nowSpec, parseDateFormat, parseDateLiteral, type DateLikeType } from './date.js';
import { fixed, repeated, type Arg, type FunctionEntry } from './registry.js';

export const DATE_PARTS = ['year', 'month', 'day', 'hour', 'minute', 'second'] as const;

/** The components date parts extract. */
export type DatePart = (typeof DATE_PARTS)[number];

/** The type (date or datetime) a date literal denotes; throws QueryLangError when it is invalid. */
export function dateLiteralType(text: string): DateLikeType {
  return parseDateLiteral(text).type;
}

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
    // Arguments are checked during analysis so that errors name the clause.
    check: (args) => void nowSpec(namedValues(args)),
    returns: () => 'datetime',
  },
  {
    name: 'date_format',
    kind: 'scalar',
    clauses: ALL_CLAUSES,
    params: fixed('datelike', 'string'),
    arity: '2',
    check: ([, format]) => void parseDateFormat(formatOf(format)),
    returns: () => 'text',
  },
];
