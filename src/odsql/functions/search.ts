// search(), suggest() and startswith(): what a search matches, and the fields it reads (DuckDB's
// spelling: dialect/duckdb/search-sql.ts, over the full-text index when the dataset has one).
//
// search: every term but the last is fuzzy (Levenshtein <= 1 for 3-5 characters, <= 2 above, exact
// below 3), the last is a prefix; suggest: every term is a prefix. Terms and tokens are compared
// lowercased and without accents, and every term must match a token of the same record (in any of
// the chosen fields).
import type { Field } from '../../catalog/schema.js';
import { queryTerms } from '../../search/tokens.js';
import { QueryLangError } from '../errors.js';

export type SearchMode = 'search' | 'suggest';

/** How tokens must match a term: within a few edits (fuzzy), or starting with it (prefix). */
export type Match = 'fuzzy' | 'prefix';

/** A query term of a search: its text (as the index's tokens are cut), and how tokens must match it. */
export interface SearchTerm {
  readonly text: string;
  readonly match: Match;
}

/** The terms of a search's text: every one a prefix in suggest, the last one in search. */
export function searchTerms(text: string, mode: SearchMode): SearchTerm[] {
  const terms = queryTerms(text);
  return terms.map((term, i) => ({
    text: term,
    match: mode === 'suggest' || i === terms.length - 1 ? 'prefix' : 'fuzzy',
  }));
}

/** The fields a search reads: the text fields for `*`, else the named ones. */
export function fieldsOf(
  source: { readonly fields: readonly Field[] },
  names: readonly string[] | '*',
): Field[] {
  if (names === '*') return source.fields.filter((f) => f.type === 'text');
  return names.map((name) => {
    const field = source.fields.find((f) => f.name === name);
    if (!field) throw new QueryLangError(`Unknown field: ${name}`);
    return field;
  });
}
