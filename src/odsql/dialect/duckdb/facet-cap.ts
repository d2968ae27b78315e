// A facet statement that sends only the values an answer can show: a plain facet sorted by count
// keeps its `limit` first values in SQL (and its refined ones), instead of sending every value to
// JavaScript, which sorts them and keeps as many (src/facets/tree.ts). DuckDB's SQL: the facet
// statements of a ClickHouse dataset are not capped. The catalog's keyword facet at 100,000
// datasets sent 100,002 values for 100 (bench/README.md). The answer is the same value for value:
// tree.ts breaks ties of counts by comparing texts as JavaScript does (UTF-16 code units), SQL by
// code points; the two orders differ only between a character of U+E000-U+FFFF and one above
// U+FFFF, so a text made of characters below U+E000 alone is placed alike by both, and of the
// values tied with the last one kept, those holding a character from U+E000 up are all sent.
import { quoteString } from '../../../sql/quoting.js';

/** What the cap needs of a facet's plan (src/facets/facet-plan.ts): null when it is not capped. */
export interface FacetCap {
  /** Sorted by count from the largest (`-count`). */
  readonly descending: boolean;
  readonly limit: number;
  readonly refined: ReadonlySet<string>;
}

const [EDGE, RANK] = ['"facet edge"', '"facet rank"'];
/** Characters whose order may differ between UTF-16 and code points (U+E000 and above). */
const LATE = quoteString('[\\x{E000}-\\x{10FFFF}]');

/**
 * The statement `sql` (rows s = index of the key, v = value, n = count) keeping, for each key
 * whose facet is capped, the values its answer can show: those counted better than the count of
 * its `limit`th value (the edge, found by a top-N aggregate, without sorting every value), the
 * first `limit` of the values tied with it (by text), and its refined ones; the other keys' rows
 * all pass (their edge is null).
 */
export function capFacetRows(sql: string, keys: readonly (FacetCap | null)[]): string {
  const caps = keys.flatMap((planned, s) => (planned ? [{ s, planned }] : []));
  if (caps.length === 0) return sql;
  const cases = (value: (p: FacetCap) => string, otherwise: string): string =>
    `CASE s ${caps.map(({ s, planned }) => `WHEN ${s} THEN ${value(planned)}`).join(' ')} ELSE ${otherwise} END`;
  const descending = (p: FacetCap): boolean => p.descending;
  const edge = cases((p) => `${descending(p) ? 'max' : 'min'}(n, ${p.limit})[${p.limit}]`, 'NULL');
  const better = cases((p) => (descending(p) ? `n > ${EDGE}` : `n < ${EDGE}`), 'TRUE');
  const refined = cases((p) => {
    const values = [...p.refined].map(quoteString);
    return values.length > 0 ? `v IN (${values.join(', ')})` : 'FALSE';
  }, 'FALSE');
  const limit = cases((p) => String(p.limit), 'NULL');
  return `WITH counted AS MATERIALIZED (SELECT s, v, n FROM (${sql}) WHERE v IS NOT NULL),
    edges AS (SELECT s, ${edge} AS ${EDGE} FROM counted GROUP BY s),
    marked AS (SELECT s, v, n, ${EDGE} FROM counted JOIN edges USING (s)),
    ties AS (SELECT s, v, n, row_number() OVER (PARTITION BY s ORDER BY v) AS ${RANK} FROM marked WHERE n = ${EDGE})
    SELECT s, v, n FROM marked WHERE ${EDGE} IS NULL OR ${better} OR (n <> ${EDGE} AND ${refined})
    UNION ALL
    SELECT s, v, n FROM ties WHERE ${RANK} <= ${limit} OR regexp_matches(v, ${LATE}) OR ${refined}`;
}
