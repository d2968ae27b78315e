// The catalog's full-text index: a table in the layout of search.parquet (layout.ts: token, field,
// ordinals), built in the engine from the tokens each catalog row carries (computed once per
// dataset when its index line was written: src/catalog/catalog-tokens.ts), never by tokenizing at
// a query or a start. Its rows are cut into CATALOG_BLOCKS blocks by a hash of the dataset id, so
// a reload that changed a few datasets rebuilds only their blocks (each about 1/64 of the
// catalog), whatever ordinals the catalog table gives its rows.
import { INDEX_COLUMNS as C } from './layout.js';
import { quoteIdentifier, quoteString } from '../sql/quoting.js';

/** Blocks of the index: a common token has a row per block, a rebuild reads one block's rows. */
export const CATALOG_BLOCKS = 64;

/** Names the SQL reads: the catalog table's hidden columns. */
export interface CatalogSearchNames {
  readonly catalog: string;
  readonly search: string;
  readonly recordId: string;
  readonly ordinal: string;
  /** The column of each row's tokens: `field tok tok` lines. */
  readonly tokens: string;
}

const BLOCK = 'block';

/** SQL of a dataset id's block. */
const blockOf = (idSql: string): string => `(hash(${idSql}) % ${CATALOG_BLOCKS})`;

/** The index rows of the catalog rows `where` keeps: one per (token, field, block), sorted by token. */
function postingsSql(names: CatalogSearchNames, where: string): string {
  const q = quoteIdentifier;
  const [id, ordinal, tokens] = [q(names.recordId), q(names.ordinal), q(names.tokens)];
  const lines = `SELECT ${ordinal} AS ord, ${blockOf(id)} AS ${BLOCK}, unnest(string_split(${tokens}, chr(10))) AS line
    FROM ${quoteIdentifier(names.catalog)} WHERE ${where}`;
  const words = `SELECT ord, ${BLOCK}, string_split(line, ' ') AS words FROM (${lines})`;
  const postings = `SELECT ord, ${BLOCK}, words[1] AS ${C.field}, unnest(words[2:]) AS ${C.token} FROM (${words})`;
  return `SELECT ${C.token}, ${C.field}, list_sort(list(ord)) AS ${C.ordinals}, ${BLOCK} FROM (${postings})
    GROUP BY ${C.token}, ${C.field}, ${BLOCK} ORDER BY ${C.token}, ${C.field}, ${BLOCK}`;
}

/** The statement (re)creating the catalog's index from every row of the catalog table. */
export function defineCatalogSearchSql(names: CatalogSearchNames): string {
  return `CREATE OR REPLACE TABLE ${quoteIdentifier(names.search)} AS ${postingsSql(names, 'TRUE')}`;
}

/**
 * The statements bringing the index up to date after the catalog rows of `ids` were replaced,
 * added or removed (run in one transaction): the blocks holding those ids are built again.
 */
export function replaceCatalogSearchSql(names: CatalogSearchNames, ids: readonly string[]): string[] {
  if (ids.length === 0) return [];
  const blocks = `(SELECT DISTINCT ${blockOf('id')} FROM (VALUES ${ids.map((i) => `(${quoteString(i)})`).join(', ')}) AS ids(id))`;
  const search = quoteIdentifier(names.search);
  return [
    `DELETE FROM ${search} WHERE ${BLOCK} IN ${blocks}`,
    `INSERT INTO ${search} ${postingsSql(names, `${blockOf(quoteIdentifier(names.recordId))} IN ${blocks}`)}`,
  ];
}
