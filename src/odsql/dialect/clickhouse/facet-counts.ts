// ClickHouse's facet counting (ClickHouse 18.16 has no GROUPING SETS): one GROUP BY per key over
// the rows a query selects, joined by UNION ALL into the rows DuckDB's single scan gives (s = index
// of the key, v = value as text, n = count), with the same texts: dates as `2001`, `2001/06`,
// `2001/06/15` in the query's time zone, paths cut to their first levels, a function's buckets
// written from one row of each group.
import { facetKeyFields, type FacetKey } from '../../facet-key.js';
import { quoteIdentifier, quoteString } from '../../../sql/clickhouse-quoting.js';

const DATE_LEVELS = [
  { start: 'toStartOfYear', format: '%Y' },
  { start: 'toStartOfMonth', format: '%Y/%m' },
  { start: 'toDate', format: '%Y/%m/%d' },
] as const;

/** Names of the statement's own columns: field names are identifiers, so a space never clashes. */
const KEY = quoteIdentifier('facet key');
const COUNT = quoteIdentifier('facet count');
const ITEM = quoteIdentifier('facet item');
const SET = quoteIdentifier('facet set');
const VALUE = quoteIdentifier('facet value');
const N = quoteIdentifier('facet n');
const kept = (field: string): string => quoteIdentifier(`facet row ${field}`);

/** What a key groups rows on, and its text from the grouped key. */
function keySql(key: Exclude<FacetKey, { kind: 'function' }>, timezone: string) {
  const column = quoteIdentifier(key.field);
  if (key.kind === 'date') {
    const { start, format } = DATE_LEVELS[key.level - 1]!;
    // A datetime's day, month and year are those of its wall clock in the time zone.
    const group = key.datetime ? `${start}(${column}, ${quoteString(timezone)})` : `${start}(${column})`;
    return { group, label: `formatDateTime(${KEY}, '${format}')` };
  }
  if (key.kind === 'path') {
    // An array is never Nullable: a null path is split as a text, after the test for null.
    const separator = quoteString(key.separator);
    const parts = `splitByString(${separator}, assumeNotNull(${column}))`;
    const cut = `arrayStringConcat(arraySlice(${parts}, 1, ${key.level}), ${separator})`;
    return {
      group: `if(isNull(${column}) OR length(${parts}) < ${key.level}, NULL, ${cut})`,
      label: KEY,
    };
  }
  return { group: `toString(${column})`, label: KEY };
}

/**
 * One key's counts over `inner`. A function key's text reads fields: each group keeps one row of
 * them (any()), renamed back to the fields' names a level up, where the text is written.
 */
function countsOf(key: FacetKey, index: number, inner: string, timezone: string): string {
  const s = `toUInt32(${index}) AS ${SET}`;
  if (key.kind !== 'function') {
    const { group, label } = keySql(key, timezone);
    return (
      `SELECT ${s}, CAST(${label} AS Nullable(String)) AS ${VALUE}, ${COUNT} AS ${N} FROM ` +
      `(SELECT ${KEY}, count() AS ${COUNT} FROM (SELECT ${group} AS ${KEY} FROM ${inner}) GROUP BY ${KEY})`
    );
  }
  const fields = key.key.fields;
  const grouped =
    `SELECT ${fields.map((f) => `any(${quoteIdentifier(f)}) AS ${kept(f)}`).join(', ')}, count() AS ${COUNT} ` +
    `FROM (SELECT ${key.key.group} AS ${KEY}, ${fields.map(quoteIdentifier).join(', ')} FROM ${inner}) GROUP BY ${KEY}`;
  const renamed = `SELECT ${fields.map((f) => `${kept(f)} AS ${quoteIdentifier(f)}`).join(', ')}, ${COUNT} FROM (${grouped})`;
  return `SELECT ${s}, CAST(${key.key.text} AS Nullable(String)) AS ${VALUE}, ${COUNT} AS ${N} FROM (${renamed})`;
}

/** Dialect.facetCounts: a GROUP BY per key, joined by UNION ALL. */
export function facetCounts(
  rowsSql: string,
  keys: readonly FacetKey[],
  unnested: boolean,
  timezone: string,
): string {
  const column = quoteIdentifier(facetKeyFields(keys)[0]!);
  // An alias named as the column it reads is a cycle to ClickHouse: the element is named apart,
  // then renamed a level up.
  const inner = unnested
    ? `(SELECT ${ITEM} AS ${column} FROM (SELECT arrayJoin(${column}) AS ${ITEM} FROM (${rowsSql})))`
    : `(${rowsSql})`;
  // s, v and n are named at the top, over no field: a field named n is no alias's target.
  const union = keys.map((key, i) => countsOf(key, i, inner, timezone)).join(' UNION ALL ');
  return `SELECT ${SET} AS s, ${VALUE} AS v, ${N} AS n FROM (${union})`;
}
