// DuckDB's spelling of multivalued fields (LIST columns): element tests, and their unnesting for group_by.
import type { Dialect, ListSpelling } from '../dialect.js';
import { quoteIdentifier } from '../../../sql/quoting.js';

/** The lambda parameter of list predicates; not a valid field name, so it shadows no column. */
const ITEM = '"odsql item"';

export const LISTS: ListSpelling = Object.freeze({
  contains: (list: string, value: string) => `list_contains(${list}, ${value})`,
  any: (list: string, test: (item: string) => string) =>
    `list_bool_or(list_transform(${list}, lambda ${ITEM}: ${test(ITEM)}))`,
  hasAny: (list: string, items: readonly string[]) => `list_has_any(${list}, [${items.join(', ')}])`,
  length: (list: string) => `len(${list})`,
});

/** One field at a time, in a subquery each: `SELECT * REPLACE (unnest(...))`, an empty list as [NULL]. */
export const unnest: Dialect['unnest'] = (table, where, names) => {
  let from = `(SELECT * FROM ${table}${where})`;
  names.forEach((name, i) => {
    const column = quoteIdentifier(name);
    const values = `CASE WHEN len(${column}) > 0 THEN ${column} ELSE [NULL] END`;
    from = `(SELECT * REPLACE (unnest(${values}) AS ${column}) FROM ${from} AS ${quoteIdentifier(`unnested ${i}`)})`;
  });
  return { from: `${from} AS ${table}`, where: '' };
};
