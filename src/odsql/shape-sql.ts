// Shaped rows in the SQL of the query's engine: its dialect's entry per cell kind (shape.ts, in
// dialect/<engine>/cells.ts), and the SELECT of the shaped columns over a compiled query.
import type { CompiledQuery } from './compile.js';
import type { Output } from './dialect/dialect.js';
import type { Cell, ShapedColumn } from './shape.js';

/** The writer of one cell in the SQL of the engine of `query`. */
function cellWriter(query: CompiledQuery): (cell: Cell) => string {
  const { cells } = query.dialect;
  const sql = (cell: Cell): string =>
    (cells[cell.kind] as (c: Cell, sql: (c: Cell) => string, output: Output) => string)(
      cell,
      sql,
      query.output,
    );
  return sql;
}

/**
 * The SELECT of one row over the rows of `query`: the longest text, in bytes, of each cell (0 for
 * a null entry), in columns w0, w1, ...
 */
export function textWidthsSql(query: CompiledQuery, cells: readonly (Cell | null)[]): string {
  const sql = cellWriter(query);
  const widths = cells.map((c, i) => {
    const width = c === null ? '0' : query.dialect.maxBytes(sql(c));
    return `${width} AS ${query.dialect.quoteIdentifier(`w${i}`)}`;
  });
  return `SELECT ${widths.join(', ') || 'NULL'} FROM (${query.sql})`;
}
/** The SELECT of `columns` over the rows of `query`. */
export function shapedSql(query: CompiledQuery, columns: readonly ShapedColumn[]): string {
  const sql = cellWriter(query);
  const quote = (name: string): string => query.dialect.quoteIdentifier(name);
  if (query.dialect.aliasesShadowColumns && columns.some((c) => c.name !== null)) {
    // A name of a shaped column would replace the query's column of that name inside the cells
    // (ClickHouse 18.16): cells are computed under names of their own and renamed outside.
    const inner = columns.map(({ cell }, i) => `${sql(cell)} AS ${quote(`_shaped${i}`)}`);
    const outer = columns.map(
      ({ name }, i) => quote(`_shaped${i}`) + (name === null ? '' : ` AS ${quote(name)}`),
    );
    return `SELECT ${outer.join(', ')} FROM (SELECT ${inner.join(', ')} FROM (${query.sql}))`;
  }
  const list = columns.map(({ name, cell }) =>
    name === null ? sql(cell) : `${sql(cell)} AS ${quote(name)}`,
  );
  return `SELECT ${list.join(', ') || 'NULL'} FROM (${query.sql})`;
}
