// How text becomes search tokens, as SQL: the index and the query normalize with the same DuckDB functions.
import { quoteString } from '../sql/quoting.js';

/** Token boundaries: anything but a letter or a digit (after accents are stripped). */
const SEPARATORS = quoteString('[^\\p{L}\\p{N}]+');

/** Term boundaries in a query as written: combining marks stay inside a term until normalization. */
const QUERY_SEPARATORS = /[^\p{L}\p{N}\p{M}]+/u;

/** A lambda parameter no dataset field can be named (fields are [a-z0-9_]; lambdas shadow columns). */
export function lambdaName(name: string): string {
  return `"search$${name}"`;
}

/** SQL of a text's normal form: lowercase, without accents. */
export function normalizeSql(textSql: string): string {
  return `strip_accents(lower(${textSql}))`;
}

/**
 * SQL of the tokens (VARCHAR[]) of a text value; NULL gives NULL. A separator at either end gives
 * an empty token: no term matches it (see the search compiler), and the index drops it.
 */
export function tokensSql(textSql: string): string {
  return `regexp_split_to_array(${normalizeSql(textSql)}, ${SEPARATORS})`;
}

/** SQL of the tokens of a multivalued text (VARCHAR[]): every element's tokens, in one list. */
export function listTokensSql(listSql: string): string {
  const item = lambdaName('item');
  return `flatten(list_transform(${listSql}, lambda ${item}: ${tokensSql(item)}))`;
}

/**
 * The terms of a query as written, in order. The split is on the raw text; each term is then
 * normalized in SQL (normalizeSql), so a query term and an indexed token agree by construction.
 */
export function queryTerms(text: string): string[] {
  return text.split(QUERY_SEPARATORS).filter((term) => term.normalize('NFD').replace(/\p{M}/gu, '') !== '');
}
