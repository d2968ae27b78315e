// The order data.parquet is written in. Sorted on the fields a portal's filters name most, each
// row group holds a narrow range of their values, and DuckDB skips the row groups whose min/max
// statistics exclude a filter's value (docs/ingest.md, Stored order). The default key is the
// first facet, the first date, then the other facets: a table refined on the first facet and
// sorted by date, a portal's most common page, is then the file's order and read without a sort
// (src/odsql/file-order.ts).
import type { DatasetFile, FieldType } from '../catalog/schema.js';
import type { FieldSettings } from './dataset-file.js';
import { resolveField, type PlannedColumn } from './plan.js';

/**
 * Rows from which ingest sorts without being asked: four row groups of DuckDB's default size.
 * Below that a filter has few row groups to skip, and the file's own order (what a publisher
 * sees first in a table without a sort) is kept.
 */
export const AUTO_SORT_MIN_ROWS = 4 * 122_880;

/** Types whose values order and bound a row group (lists, geometries and JSON do not). */
const SORTABLE: ReadonlySet<FieldType> = new Set(['text', 'int', 'double', 'boolean', 'date', 'datetime']);

export interface SortKeyOptions {
  /** Fields given with --sort-by (names or source headers); [] keeps the file's order. */
  readonly sortBy?: readonly string[];
  readonly facets?: readonly string[];
  readonly fields?: Readonly<Record<string, FieldSettings>>;
}

/**
 * The fields data.parquet is sorted on, in order: those given, or from AUTO_SORT_MIN_ROWS rows
 * the first facet field (given now or in the previous version), the first date or datetime, then
 * the other facets. Facets after the date still order the rows of one instant; on flights they
 * pruned no row group either way (each row group holds every destination).
 */
export function sortKey(
  columns: readonly PlannedColumn[],
  options: SortKeyOptions,
  previous: DatasetFile | null,
  rowCount: number,
): string[] {
  const names = columns.map((c) => c.name);
  const sortable = (name: string): boolean => {
    const column = columns.find((c) => c.name === name);
    return column !== undefined && column.separator === null && SORTABLE.has(column.type);
  };
  if (options.sortBy !== undefined) {
    const key = options.sortBy.map((given) => resolveField('--sort-by', given, names));
    const unsortable = key.find((name) => !sortable(name));
    if (unsortable !== undefined)
      throw new Error(`--sort-by: ${unsortable} is a list, a geometry or JSON: sort on scalar fields`);
    return [...new Set(key)];
  }
  if (rowCount < AUTO_SORT_MIN_ROWS) return [];
  const facets = [
    ...(options.facets ?? []),
    ...Object.entries(options.fields ?? {})
      .filter(([, settings]) => settings.annotations?.facet !== undefined)
      .map(([name]) => name),
    ...(previous?.fields ?? [])
      .filter((f) => f.annotations.facet !== undefined && names.includes(f.name))
      .map((f) => f.name),
  ].map((given) => resolveField('--facet', given, names));
  const [first, ...others] = new Set(facets.filter(sortable));
  const firstDate = columns.find((c) => (c.type === 'date' || c.type === 'datetime') && c.separator === null);
  const key = [first, firstDate?.name, ...others].filter((name) => name !== undefined);
  return [...new Set(key)];
}
