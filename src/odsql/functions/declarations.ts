// Registry entries that only one clause understands: include/exclude in select, random in order_by.
import { fixed, type FunctionEntry } from './registry.js';

export const DECLARATION_FUNCTIONS: readonly FunctionEntry[] = [
  { name: 'include', kind: 'declaration', clauses: ['select'], params: fixed('pattern'), arity: '1' },
  { name: 'exclude', kind: 'declaration', clauses: ['select'], params: fixed('pattern'), arity: '1' },
  {
    // A hash of the row's identity (its ordinal, or the group keys) and the seed: the same seed gives
    // the same order, page after page; the direction is ignored.
    name: 'random',
    kind: 'ordering',
    clauses: ['order_by'],
    params: fixed('integer_literal'),
    arity: '1',
    returns: () => 'int',
  },
];
