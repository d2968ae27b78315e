// search(), suggest() and startswith() in DuckDB's SQL: over the full-text index when the dataset
// has one, else over the fields (what they match: functions/search.ts). Terms and tokens are
// compared lowercased and without accents; the fuzzy step runs on the index's vocabulary, never
// on every row.
import { isMultivalued, ORDINAL_COLUMN, type Field } from '../../../catalog/schema.js';
import { INDEX_COLUMNS as C } from '../../../search/layout.js';
import { lambdaName, normalizeSql, tokensSql } from '../../../search/tokens.js';
import { fieldsOf, searchTerms, type Match, type SearchMode } from '../../functions/search.js';
import type { SpelledSource } from '../dialect.js';
import { quoteIdentifier, quoteString } from '../../../sql/quoting.js';

/** A query term: its normalized form as SQL, and how tokens must match it. */
interface Term {
  readonly sql: string;
  readonly match: Match;
}

/** Whether the token `tokenSql` matches a term, by kind of match. */
const MATCHES = {
  prefix: (token, term) => `starts_with(${token}, ${term})`,
  fuzzy: (token, term) => {
    const edits = `(CASE WHEN length(${term}) < 3 THEN 0 WHEN length(${term}) <= 5 THEN 1 ELSE 2 END)`;
    const lengths = `length(${token}) BETWEEN length(${term}) - ${edits} AND length(${term}) + ${edits}`;
    return `(${lengths} AND levenshtein(${token}, ${term}) <= ${edits})`;
  },
} as const satisfies Record<Match, (tokenSql: string, termSql: string) => string>;

function termsOf(text: string, mode: SearchMode): Term[] {
  return searchTerms(text, mode).map((term) => ({
    sql: normalizeSql(quoteString(term.text)),
    match: term.match,
  }));
}

/** A compiled search: its condition on the rows, and the ordinals it keeps when read from the index. */
export interface SearchSql {
  readonly condition: string;
  /** SQL of the ordinals of the matching records (repeats possible), or null without an index. */
  readonly ordinals: string | null;
}

/**
 * A boolean SQL expression over the rows of `source.table`: the record matches every term of
 * `text` in one of `fields` (a search without terms matches every record).
 */
export function compileSearch(
  source: SpelledSource,
  fields: readonly string[] | '*',
  text: string,
  mode: SearchMode,
): SearchSql {
  const chosen = fieldsOf(source, fields);
  const terms = termsOf(text, mode);
  if (terms.length === 0) return { condition: 'TRUE', ordinals: null };
  if (chosen.length === 0) return { condition: 'FALSE', ordinals: null };
  if (source.searchTable === null || !chosen.every((f) => f.type === 'text')) {
    return { condition: scanSearchSql(chosen, terms), ordinals: null };
  }
  const ordinals = indexOrdinalsSql(source.searchTable, chosen, terms);
  return { condition: `(${quoteIdentifier(ORDINAL_COLUMN)} IN (${ordinals}))`, ordinals };
}

/**
 * The vocabulary's test of a term. A prefix also bounds the token between the term and the term
 * followed by U+10FFFF (a private-use code point, never in a token: not a letter or a digit), so
 * the scan of an index sorted by token skips every row group outside the range: the catalog's
 * vocabulary of 300,000 tokens at 100,000 datasets was read in 20-74 ms by starts_with alone,
 * 2-8 ms bounded (bench/README.md, Measurements behind the code).
 */
function vocabularyMatch(term: Term): string {
  const match = MATCHES[term.match](C.token, term.sql);
  if (term.match !== 'prefix') return match;
  return `(${C.token} >= ${term.sql} AND ${C.token} < ${term.sql} || chr(1114111) AND ${match})`;
}

/**
 * The ordinals of the records whose postings cover every term. Each term first picks its tokens
 * from the index's vocabulary (its distinct tokens, a few hundred to a few hundred thousand, where
 * the fuzzy test runs once per token instead of once per posting block), then unnests the
 * ordinals of those tokens in the chosen fields; INTERSECT keeps the ordinals every term reached
 * (faster in DuckDB than grouping and counting). The rows are picked by their ordinal (an integer
 * semi-join, cheaper than one on record ids). Measured: bench/README.md, Measurements behind the code.
 */
function indexOrdinalsSql(searchTable: string, fields: readonly Field[], terms: readonly Term[]): string {
  const index = quoteIdentifier(searchTable);
  const names = fields.map((f) => quoteString(f.name)).join(', ');
  const vocabulary = `(SELECT DISTINCT ${C.token} FROM ${index}) AS ${quoteIdentifier('vocabulary')}`;
  const perTerm = terms.map(
    (term) =>
      `SELECT unnest(${C.ordinals}) FROM ${index} WHERE ${C.field} IN (${names}) AND ${C.token} IN` +
      ` (SELECT ${C.token} FROM ${vocabulary} WHERE ${vocabularyMatch(term)})`,
  );
  return perTerm.join(' INTERSECT ');
}

/**
 * The same test over each row's tokens, computed on the fly (no index: slower, same answers). The
 * fields are joined by a space before one split: each regexp_split_to_array compiles its Unicode
 * pattern anew, which made a search of many text fields slow even over a few rows
 * (bench/README.md, Measurements behind the code).
 */
function scanSearchSql(fields: readonly Field[], terms: readonly Term[]): string {
  const [all, token] = [lambdaName('all'), lambdaName('t')];
  const texts = fields.map((f) =>
    isMultivalued(f) ? `array_to_string(${quoteIdentifier(f.name)}, ' ')` : quoteIdentifier(f.name),
  );
  const tokens = tokensSql(`concat_ws(' ', ${texts.join(', ')})`);
  const everyTerm = terms.map(
    (term) => `len(list_filter(${all}, lambda ${token}: ${MATCHES[term.match](token, term.sql)})) > 0`,
  );
  return `list_transform([${tokens}], lambda ${all}: ${everyTerm.join(' AND ')})[1]`;
}

/** startswith(): the whole value begins with `prefix`, case-sensitive; for a multivalued field, any element. */
export function compileStartsWith(
  source: SpelledSource,
  fields: readonly string[] | '*',
  prefix: string,
): string {
  const chosen = fieldsOf(source, fields);
  if (chosen.length === 0) return 'FALSE';
  const item = lambdaName('item');
  const tests = chosen.map((f) =>
    isMultivalued(f)
      ? `list_bool_or(list_transform(${quoteIdentifier(f.name)}, lambda ${item}: starts_with(${item}, ${quoteString(prefix)})))`
      : `starts_with(${quoteIdentifier(f.name)}, ${quoteString(prefix)})`,
  );
  return `(${tests.join(' OR ')})`;
}
