// Registry entries of the scalar text functions: length, lower, upper, ifnull, json_format.
import { QueryLangError } from '../errors.js';
import { ALL_CLAUSES, TYPE_NAMES, comparable, type ValueType } from '../types.js';
import { fixed, withOptional, type Arg, type FunctionEntry } from './registry.js';

const typeOfFirst = (args: readonly Arg[]): ValueType => args[0]?.type ?? 'null';

/** ifnull's alternative must be of the expression's type: a text field cannot fall back to a number. */
function checkSameType(args: readonly Arg[]): void {
  const [expr, alternative] = args;
  if (!expr?.type || !alternative?.type || comparable(expr.type, alternative.type)) return;
  throw new QueryLangError(
    `ifnull() alternative must be of the same type as the expression: ${TYPE_NAMES[alternative.type]} for ${TYPE_NAMES[expr.type]}`,
  );
}

export const TEXT_FUNCTIONS: readonly FunctionEntry[] = [
  {
    name: 'length',
    kind: 'scalar',
    clauses: ['select', 'where', 'order_by'],
    params: fixed('text'),
    arity: '1',
    returns: () => 'int',
  },
  {
    name: 'lower',
    kind: 'scalar',
    clauses: ALL_CLAUSES,
    params: fixed('text'),
    arity: '1',
    returns: () => 'text',
  },
  {
    name: 'upper',
    kind: 'scalar',
    clauses: ALL_CLAUSES,
    params: fixed('text'),
    arity: '1',
    returns: () => 'text',
  },
  {
    name: 'ifnull',
    kind: 'scalar',
    clauses: ALL_CLAUSES,
    params: fixed('any', 'any'),
    arity: '2',
    check: checkSameType,
    returns: typeOfFirst,
  },
  {
    // Exports other than JSON keep the original text (explore-api.md): text and native outputs.
    name: 'json_format',
    kind: 'scalar',
    clauses: ['select'],
    params: withOptional(['text'], ['string_or_null']),
    arity: '1 or 2',
    returns: () => 'json',
  },
];
