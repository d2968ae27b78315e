// DuckDB's facet counting: each facet level's key per row and its text per group, in one
// GROUPING SETS statement that counts the keys of several facets in a single scan of the rows a
// query selects.
import { facetKeyFields, functionKeyFields, type FacetKey } from '../../facet-key.js';
import { localTimestamp } from './wall-clock.js';
import { quoteIdentifier, quoteString } from '../../../sql/quoting.js';

const DATE_LEVELS = [
  { unit: 'year', format: '%Y' },
  { unit: 'month', format: '%Y/%m' },
  { unit: 'day', format: '%Y/%m/%d' },
] as const;

/**
 * A facet's key: what rows are grouped on, and how a group's key becomes its text value, once
 * per group (dates are grouped on truncated instants and formatted once per group, cheaper than
 * formatting every row; a function's text reads the fields of one row of its group, cheaper than
 * a range() label per row: bench/README.md, Measurements behind the code).
 */
function keySql(key: FacetKey, timezone: string): { group: string; label: (key: string) => string } {
  if (key.kind === 'function') return { group: key.key.group, label: () => key.key.text };
  const column = quoteIdentifier(key.field);
  if (key.kind === 'date') {
    const local = key.datetime ? localTimestamp(column, timezone) : column;
    const { unit, format } = DATE_LEVELS[key.level - 1]!;
    return { group: `date_trunc('${unit}', ${local})`, label: (k) => `strftime(${k}, '${format}')` };
  }
  if (key.kind === 'path') {
    const separator = quoteString(key.separator);
    const parts = `string_split(${column}, ${separator})`;
    return {
      group: `CASE WHEN len(${parts}) >= ${key.level} THEN array_to_string(${parts}[1:${key.level}], ${separator}) END`,
      label: (k) => k,
    };
  }
  return { group: `CAST(${column} AS VARCHAR)`, label: (k) => k };
}

/** Names of the statement's own columns: field names are identifiers, so a space never clashes. */
const SET = '"facet set"';
const COUNT = '"facet count"';
const ROW = '"facet row"';
const WEIGHT = '"facet weight"';
const keyColumn = (i: number) => `"facet key ${i}"`;

/**
 * SQL counting `keys` in one GROUPING SETS scan of the rows of `inner`; its rows: s = index of
 * the counted key, v = value, n = count (of rows, or the sum of their `weight`). Function keys
 * carry one row of their fields per group (a struct, unpacked after grouping) to write their text.
 */
function groupingSql(
  keys: readonly FacetKey[],
  inner: string,
  timezone: string,
  weight: string | null,
): string {
  const sqls = keys.map((k) => keySql(k, timezone));
  const ks = keys.map((_, i) => keyColumn(i));
  const rowFields = functionKeyFields(keys);
  const row = rowFields.length
    ? `, {${rowFields.map((f) => `${quoteString(f)}: ${quoteIdentifier(f)}`).join(', ')}} AS ${ROW}`
    : '';
  const grouped =
    `SELECT list_position([${ks.map((k) => `grouping(${k})`).join(', ')}], 0) - 1 AS ${SET}, ${ks.join(', ')}, ` +
    `${weight === null ? 'count(*)' : `sum(${WEIGHT})`} AS ${COUNT}${row && `, any_value(${ROW}) AS ${ROW}`} ` +
    `FROM (SELECT ${sqls.map((k, i) => `${k.group} AS ${ks[i]}`).join(', ')}${row}${weight === null ? '' : `, ${quoteIdentifier(weight)} AS ${WEIGHT}`} FROM ${inner}) ` +
    `GROUP BY GROUPING SETS (${ks.map((k) => `(${k})`).join(', ')})`;
  const unpacked = row ? `SELECT *, ${ROW}.* FROM (${grouped})` : grouped;
  const value = `CASE ${SET} ${sqls.map((k, i) => `WHEN ${i} THEN ${k.label(ks[i]!)}`).join(' ')} END`;
  return `SELECT ${SET} AS s, ${value} AS v, ${COUNT} AS n FROM (${unpacked})`;
}

/** Dialect.facetCounts: one GROUPING SETS scan. */
export function facetCounts(
  rowsSql: string,
  keys: readonly FacetKey[],
  unnested: boolean,
  timezone: string,
  weight: string | null,
): string {
  const column = quoteIdentifier(facetKeyFields(keys)[0]!);
  const inner = unnested ? `(SELECT unnest(${column}) AS ${column} FROM (${rowsSql}))` : `(${rowsSql})`;
  return groupingSql(keys, inner, timezone, weight);
}
