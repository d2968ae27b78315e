// When a records page may be read in file order, without ORDER BY. data.parquet is sorted on the
// dataset's sort key (computed.sort_by) then on the rows' source order, nulls last (ingest's
// stored-data.ts), and `_ordinal` is a row's position in the file. Among the rows whose leading
// key fields a where pins to one value each, the file holds the rows sorted on the key's next
// fields, and position breaks their ties: so an ascending order_by on those next fields, ties
// broken by `_ordinal` as every sorted page is, is exactly the file's order. DuckDB keeps a
// scan's order through filters and LIMIT/OFFSET (preserve_insertion_order, left on), and stops
// reading once the page is full, instead of a top-N over every matching row (docs/ingest.md,
// Pages in file order; bench/README.md, Measurements behind the code).
import type { QuerySource } from './source.js';
import type { AnalyzedQuery } from './analyze.js';
import type { Expr } from './ast.js';
import type { FieldType } from '../catalog/schema.js';
import type { Dialect } from './dialect/dialect.js';

/**
 * Types whose equality pins one stored value: not a double (-0.0 = 0.0), not dates (a date
 * literal compares a whole granule) or lists.
 */
const PINNED_LITERAL: Partial<Record<FieldType, Expr['kind']>> = {
  text: 'string',
  int: 'number',
  boolean: 'boolean',
};

/** The fields a top-level AND of conditions pins, each by `field = literal` (either way round). */
function pinnedFields(conditions: readonly Expr[], query: AnalyzedQuery): Set<string> {
  const pinned = new Set<string>();
  const visit = (expr: Expr): void => {
    if (expr.kind === 'logical' && expr.op === 'and') return expr.operands.forEach(visit);
    if (expr.kind !== 'comparison' || expr.op !== '=') return;
    for (const [side, literal] of [
      [expr.left, expr.right],
      [expr.right, expr.left],
    ] as const) {
      const field = side.kind === 'field' ? query.facts.get(side) : undefined;
      if (field?.field && !field.multivalued && PINNED_LITERAL[field.field.type] === literal.kind)
        pinned.add(field.field.name);
    }
  };
  conditions.forEach(visit);
  return pinned;
}

/** Names of the fields an ungrouped order_by sorts on, ascending, or null when one is anything else. */
function ascendingFields(query: AnalyzedQuery): string[] | null {
  const names: string[] = [];
  for (const key of query.orderBy) {
    const field = key.expr.kind === 'field' ? query.facts.get(key.expr)?.field : null;
    if (key.descending || !field) return null;
    names.push(field.name);
  }
  return names;
}

/**
 * Whether the rows of an ungrouped query, sorted as asked, are the rows in file order: its order
 * is ascending on fields that continue the source's sort key after the fields its where pins
 * (pinned fields may sort anywhere: they are equal on every row). `joined`: some condition reads
 * its rows from a join (an index search), whose output keeps no order; an engine without a
 * storage order (ClickHouse's parts) never does.
 */
export function readsInFileOrder(
  source: QuerySource,
  query: AnalyzedQuery,
  dialect: Dialect,
  joined: boolean,
): boolean {
  const sortBy = source.sortBy ?? [];
  if (!dialect.storageOrder || sortBy.length === 0 || query.grouped || query.orderBy.length === 0 || joined)
    return false;
  const ordered = ascendingFields(query);
  if (ordered === null) return false;
  const pinned = pinnedFields(query.where, query);
  const wanted = ordered.filter((name) => !pinned.has(name));
  const following = sortBy.filter((name) => !pinned.has(name));
  return wanted.every((name, i) => following[i] === name);
}
