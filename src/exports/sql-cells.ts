// The typed cells of the writers of typed values (Arrow, FlatGeobuf, OV2, shapefile, XLSX): the
// kind of JS value each column comes as, and the shaped cell (src/odsql/shape.ts) that gives it;
// and the XML text of names written from JS.
import { cell, shapedSql, type Cell, type CompiledQuery, type OutputColumn } from '../odsql/index.js';

/** XML text of a literal string (for names written from JS into SQL or into documents). */
export function xmlText(value: string): string {
  return value
    .replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]/g, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/** An XML element name made of a key (field names already are; expressions are not). */
export function xmlName(key: string): string {
  const cleaned = key.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

/**
 * How a writer of typed cells receives a column: the kind of JS value the engine hands over. Dates
 * and datetimes come as their JSON text ('YYYY-MM-DD', ISO 8601 with the offset of the
 * request's time zone), which each writer turns into its own date type.
 */
export type CellKind = 'int' | 'double' | 'bool' | 'date' | 'datetime' | 'text' | 'list';

/** The kind of a column and the cell giving its value as that kind. */
export function typedCell(column: OutputColumn, separator: string): { kind: CellKind; cell: Cell } {
  if (column.multivalued) return { kind: 'list', cell: cell.cast(column, 'text-list') };
  const kinds: Partial<Record<OutputColumn['type'], CellKind>> = {
    int: 'int',
    double: 'double',
    number: 'double',
    boolean: 'bool',
    date: 'date',
    datetime: 'datetime',
  };
  const kind = kinds[column.type] ?? 'text';
  const cells: Record<CellKind, () => Cell> = {
    int: () => cell.cast(column, 'int'),
    double: () => cell.cast(column, 'double'),
    bool: () => cell.cast(column, 'bool'),
    date: () => cell.text(column, separator),
    datetime: () => cell.text(column, separator),
    text: () => cell.text(column, separator),
    list: () => cell.value(column),
  };
  return { kind, cell: cells[kind]() };
}

/** A typed cell of one output column (`K`: the kinds of the writer, typedCell's by default). */
export interface TypedCell<K extends string = CellKind> {
  readonly column: OutputColumn;
  readonly kind: K;
  readonly cell: Cell;
}

/**
 * SELECT of typed cells of `columns` over the compiled rows, `leading` cells first; `typed` gives
 * each column's kind and cell (typedCell, or a writer's own that falls back to it).
 */
export function typedSelect<K extends string = CellKind>(
  context: { readonly query: CompiledQuery; readonly options: { readonly listSeparator: string } },
  columns: readonly OutputColumn[],
  leading: readonly Cell[] = [],
  typed: (column: OutputColumn, separator: string) => { kind: K; cell: Cell } = typedCell as never,
): { cells: TypedCell<K>[]; sql: string } {
  const cells = columns.map((c) => ({ column: c, ...typed(c, context.options.listSeparator) }));
  const shaped = [...leading, ...cells.map((c) => c.cell)].map((c) => ({ name: null, cell: c }));
  return { cells, sql: shapedSql(context.query, shaped) };
}
