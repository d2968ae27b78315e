// The SQL of facet counting: each facet's key per row and its text per group, and the one
// GROUPING SETS statement that counts the keys of several facets in a single scan.
import { localTimestamp } from '../odsql/functions/date-sql.js';
import { quoteIdentifier, quoteString } from '../sql-text.js';
import type { FacetField, FacetTarget } from './facet-fields.js';

/** What a facet counts: a field's values (by level), or the keys of a function of fields. */
export type CountedTarget =
  { readonly kind: 'field'; readonly facet: FacetField } | Extract<FacetTarget, { kind: 'function' }>;

/** A key a statement counts: one level of one facet, and the fields that facet reads. */
export interface CountedKey {
  readonly level: number;
  readonly target: CountedTarget;
  readonly fields: readonly string[];
}

const DATE_LEVELS = [
  { unit: 'year', format: '%Y' },
  { unit: 'month', format: '%Y/%m' },
  { unit: 'day', format: '%Y/%m/%d' },
] as const;

/**
 * A facet's key at one level (1-based): what rows are grouped on, and how a group's key becomes
 * its text value, once per group (dates are grouped on truncated instants and formatted once
 * per group, which is 4x cheaper than formatting every row; a function's text reads the fields
 * of one row of its group, 20x cheaper than a range() label per row).
 */
function keySql(
  target: CountedTarget,
  level: number,
  timezone: string,
): { group: string; label: (key: string) => string } {
  if (target.kind === 'function') {
    const { group, text } = target.key;
    return { group, label: () => text };
  }
  const { facet } = target;
  const column = quoteIdentifier(facet.field.name);
  if (facet.kind === 'date') {
    const local = facet.field.type === 'datetime' ? localTimestamp(column, timezone) : column;
    const { unit, format } = DATE_LEVELS[level - 1]!;
    return { group: `date_trunc('${unit}', ${local})`, label: (key) => `strftime(${key}, '${format}')` };
  }
  if (facet.kind === 'hierarchical') {
    const parts = `string_split(${column}, ${quoteString(facet.separator)})`;
    return {
      group: `CASE WHEN len(${parts}) >= ${level} THEN array_to_string(${parts}[1:${level}], ${quoteString(facet.separator)}) END`,
      label: (key) => key,
    };
  }
  return { group: `CAST(${column} AS VARCHAR)`, label: (key) => key };
}

/** Names of the statement's own columns: field names are identifiers, so a space never clashes. */
const SET = '"facet set"';
const COUNT = '"facet count"';
const ROW = '"facet row"';
const keyColumn = (i: number) => `"facet key ${i}"`;

/**
 * SQL counting `keys` in one GROUPING SETS scan of the rows of `inner`; its rows: s = index of
 * the counted key, v = value, n = count. Function keys carry one row of their fields per group
 * (a struct, unpacked after grouping) to write their text.
 */
export function groupingSql(keys: readonly CountedKey[], inner: string, timezone: string): string {
  const sqls = keys.map((k) => keySql(k.target, k.level, timezone));
  const ks = keys.map((_, i) => keyColumn(i));
  const rowFields = [...new Set(keys.flatMap((k) => (k.target.kind === 'function' ? k.fields : [])))];
  const row = rowFields.length
    ? `, {${rowFields.map((f) => `${quoteString(f)}: ${quoteIdentifier(f)}`).join(', ')}} AS ${ROW}`
    : '';
  const grouped =
    `SELECT list_position([${ks.map((k) => `grouping(${k})`).join(', ')}], 0) - 1 AS ${SET}, ${ks.join(', ')}, ` +
    `count(*) AS ${COUNT}${row && `, any_value(${ROW}) AS ${ROW}`} ` +
    `FROM (SELECT ${sqls.map((k, i) => `${k.group} AS ${ks[i]}`).join(', ')}${row} FROM ${inner}) ` +
    `GROUP BY GROUPING SETS (${ks.map((k) => `(${k})`).join(', ')})`;
  const unpacked = row ? `SELECT *, ${ROW}.* FROM (${grouped})` : grouped;
  const value = `CASE ${SET} ${sqls.map((k, i) => `WHEN ${i} THEN ${k.label(ks[i]!)}`).join(' ')} END`;
  return `SELECT ${SET} AS s, ${value} AS v, ${COUNT} AS n FROM (${unpacked})`;
}
