// How one engine writes each kind of shaped cell (src/odsql/shape.ts) in its SQL; `sql` writes a
// cell nested inside it in the same engine's SQL; `output` is the shape the query presents its
// values in (a geo_shape is its stored text in native output).
import type { Cell } from '../shape.js';
import type { Output } from './dialect.js';

export type CellSpelling = {
  readonly [K in Cell['kind']]: (
    cell: Extract<Cell, { kind: K }>,
    sql: (cell: Cell) => string,
    output: Output,
  ) => string;
};
