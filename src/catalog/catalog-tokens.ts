// The search tokens of a dataset's catalog row, computed once when its index line is written and
// kept in the row (a hidden column of the catalog table, from which the engine builds the
// catalog's full-text index: src/search/catalog-search.ts). Tokenizing every row at each query
// took 18 s a search at 100,000 datasets (bench/README.md); tokenizing at each start, 40 s.
import { textTokens } from '../text-tokens.js';

/** The hidden column holding a row's tokens: `field tok tok ...` lines, one per field with tokens. */
export const TOKENS_COLUMN = '_tokens';

/**
 * Bumped when what a row's tokens hold changes: an index line written with another (or none) is
 * read from its folder again (portal-load.ts, stillHolds).
 */
export const TOKENS_VERSION = 1;

/** Columns of a row that are never text a search reads (its hidden ones, the uid, dates, counts). */
const NOT_SEARCHED = new Set([
  'dataset_uid',
  'modified',
  'data_processed',
  'metadata_processed',
  'records_count',
  'has_records',
]);

/** The text of a value as the catalog table's VARCHAR holds it (JSON numbers and booleans as written). */
function texts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (Array.isArray(value)) return value.flatMap((v) => (typeof v === 'object' ? [] : texts(v)));
  return [];
}

/**
 * The tokens of a catalog row (its columns by name), each field's distinct tokens on a line of
 * their own: `title daily weather in seattle`. Field names and tokens hold no space or newline.
 */
export function rowTokens(row: Readonly<Record<string, unknown>>): string {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(row)) {
    if (name.startsWith('_') || NOT_SEARCHED.has(name)) continue;
    const tokens = new Set(texts(value).flatMap(textTokens));
    if (tokens.size > 0) lines.push(`${name} ${[...tokens].join(' ')}`);
  }
  return lines.join('\n');
}
