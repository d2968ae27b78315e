// DuckDB's spelling of search(), suggest() and startswith(): over the dataset's full-text index
// when it has one, else over its text fields (search-sql.ts).
import { searchFields, textOf } from '../../functions/predicate.js';
import type { FunctionSpelling } from '../dialect.js';
import { compileSearch, compileStartsWith } from './search-sql.js';

/** A lone index search is counted from the index: its ordinals are kept beside its condition. */
const search =
  (mode: 'search' | 'suggest'): FunctionSpelling =>
  (args, ctx) => {
    const found = compileSearch(ctx.source, searchFields(args), textOf(args[args.length - 1]), mode);
    if (found.ordinals !== null) ctx.ordinalSets?.set(found.condition, found.ordinals);
    return found.condition;
  };

export const SEARCH: ReadonlyMap<string, FunctionSpelling> = new Map<string, FunctionSpelling>([
  ['search', search('search')],
  ['suggest', search('suggest')],
  ['startswith', (args, ctx) => compileStartsWith(ctx.source, searchFields(args), textOf(args[1]))],
]);
