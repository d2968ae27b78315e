// Arrow IPC stream (no peer of the public service offers it): one record batch per chunk of the
// engine's result, made from the column arrays the engine hands over in Arrow's layout, no JS
// value per cell. apache-arrow only frames the batches; it is loaded on the first Arrow export, so
// a server never asked for one does not hold its memory (bench/README.md, Measurements behind the code).
import type { Data, DataType } from 'apache-arrow';
import type { Chunk, ColumnArrays } from '../engine/engine.js';
import { cell, type Cell, type OutputColumn } from '../odsql/index.js';
import type { ExportContext, Exporter } from './export-context.js';
import { streamQuery } from './query-stream.js';
import { typedCell, typedSelect, type CellKind } from './sql-cells.js';

/** Bytes of the IPC end-of-stream marker (continuation, zero length). */
const END_OF_STREAM = 8;

/** The kind of an output column and the cell giving its value: dates and datetimes kept typed. */
function arrowCell(column: OutputColumn, separator: string): { kind: CellKind; cell: Cell } {
  if (!column.multivalued && column.type === 'date') return { kind: 'date', cell: cell.cast(column, 'date') };
  if (!column.multivalued && column.type === 'datetime') {
    return { kind: 'datetime', cell: cell.cast(column, 'instant') };
  }
  return typedCell(column, separator);
}

/** The layout the engine hands each kind of cell in (arrowCell's casts give these types). */
const LAYOUTS: Record<CellKind, ColumnArrays['type']> = {
  int: 'int64',
  double: 'float64',
  bool: 'bool',
  date: 'date32',
  datetime: 'timestamp_us',
  text: 'utf8',
  list: 'list',
};

/** Arrow IPC stream of the rows, columns named as in the other exports, stored types kept. */
async function writeArrow(context: ExportContext) {
  const arrow = await import('apache-arrow');
  const { Field, List, RecordBatch, Schema, Struct, Table, makeData, tableToIPC } = arrow;
  const item = new Field('item', new arrow.Utf8(), true);
  const ARROW_TYPES: Record<CellKind, () => DataType> = {
    int: () => new arrow.Int64(),
    double: () => new arrow.Float64(),
    bool: () => new arrow.Bool(),
    date: () => new arrow.DateDay(),
    datetime: () => new arrow.TimestampMicrosecond('UTC'),
    text: () => new arrow.Utf8(),
    list: () => new List(item),
  };
  const { cells, sql } = typedSelect(context, context.columns, [], arrowCell);
  const types = cells.map((c) => ARROW_TYPES[c.kind]());
  const schema = new Schema(
    cells.map(
      (c, i) => new Field(context.options.headers.get(c.column.key) ?? c.column.key, types[i]!, true),
    ),
  );

  /** One column of a chunk as Arrow data. */
  const column = (arrays: ColumnArrays, kind: CellKind, type: DataType, rows: number): Data => {
    if (arrays.type !== LAYOUTS[kind]) throw new Error(`an Arrow ${kind} column came as ${arrays.type}`);
    switch (arrays.type) {
      case 'utf8':
        return makeData({ ...arrays, type, length: rows } as never);
      case 'list': {
        const { child, ...list } = arrays;
        const items = makeData({ ...child, type: item.type, length: child.valueOffsets.length - 1 } as never);
        return makeData({ ...list, type, length: rows, child: items } as never);
      }
      default: {
        const { values, ...validity } = arrays;
        return makeData({ ...validity, type, length: rows, data: values } as never);
      }
    }
  };

  // Each chunk is serialised as a one-batch IPC stream; the schema message (the same every
  // time) is kept only once and the end-of-stream marker only at the end.
  const empty = tableToIPC(new Table(schema), 'stream');
  const schemaBytes = empty.length - END_OF_STREAM;
  let wroteRows = false;
  const encode = (chunk: Chunk, first: boolean): Buffer => {
    wroteRows = true;
    const rows = chunk.rowCount;
    const children = cells.map((c, i) => column(chunk.arrays(i), c.kind, types[i]!, rows));
    const data = makeData({ type: new Struct(schema.fields), length: rows, nullCount: 0, children });
    const bytes = tableToIPC(new Table([new RecordBatch(schema, data)]), 'stream');
    return Buffer.from(bytes.subarray(first ? 0 : schemaBytes, bytes.length - END_OF_STREAM));
  };
  const tail = (): Buffer => Buffer.from(wroteRows ? empty.subarray(schemaBytes) : empty);
  return streamQuery(context.engine, sql, encode, { head: '', tail }, context.signal);
}

export const ARROW_FORMAT = {
  arrow: {
    contentType: 'application/vnd.apache.arrow.stream',
    extension: 'arrow',
    output: 'native',
    geo: false,
    write: writeArrow,
  },
} satisfies Record<string, Exporter>;
