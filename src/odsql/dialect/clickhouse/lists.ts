// ClickHouse's spelling of multivalued fields: Array(String) columns, where an empty array stands
// for null (src/engine/clickhouse/types.ts), and their unnesting for group_by with arrayJoin.
import type { Dialect, ListSpelling } from '../dialect.js';
import { quoteIdentifier } from '../../../sql/clickhouse-quoting.js';

/** The lambda parameter of list predicates; not a valid field name, so it shadows no column. */
const ITEM = '`odsql item`';

/** A test of a list, null for a null (empty) list as DuckDB's list functions answer. */
const ofList = (list: string, test: string): string => `if(empty(${list}), NULL, ${test})`;

export const LISTS: ListSpelling = Object.freeze({
  contains: (list: string, value: string) => ofList(list, `has(${list}, ${value})`),
  any: (list: string, test: (item: string) => string) =>
    ofList(list, `arrayExists(${ITEM} -> ${test(ITEM)}, ${list})`),
  hasAny: (list: string, items: readonly string[]) => ofList(list, `hasAny(${list}, [${items.join(', ')}])`),
  length: (list: string) => `length(${list})`,
});

/**
 * Each unnested field is replaced by one of its elements (arrayJoin: one row per element, a
 * cross product over several fields), an empty list by one null, as DuckDB's unnest does; the
 * other columns are listed (ClickHouse 18.16 has no `* REPLACE`, and ARRAY JOIN cannot reuse a
 * column's name).
 */
export const unnest: Dialect['unnest'] = (table, where, names, columns) => {
  const unnested = new Set(names);
  const kept = columns.filter((c) => !unnested.has(c)).map(quoteIdentifier);
  const elements = names.map((name) => {
    const column = quoteIdentifier(name);
    const values = `if(empty(${column}), [CAST(NULL AS Nullable(String))], CAST(${column} AS Array(Nullable(String))))`;
    return `arrayJoin(${values}) AS ${column}`;
  });
  // The rows are filtered in a subquery of their own: an element's alias would replace the list
  // of that name in a WHERE beside it (18.16 substitutes aliases everywhere in a query).
  const rows = where ? `(SELECT * FROM ${table}${where})` : table;
  return {
    from: `(SELECT ${[...kept, ...elements].join(', ')} FROM ${rows}) AS ${table}`,
    where: '',
  };
};
