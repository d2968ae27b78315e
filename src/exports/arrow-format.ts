// Arrow IPC stream (no peer of the public service offers it): one record batch per DuckDB chunk
// of typed cells. apache-arrow is loaded on the first Arrow export: 14 MiB resident that a server
// never asked for one does not hold.
import type { DuckDBDataChunk } from '@duckdb/node-api';
import type { DataType } from 'apache-arrow';
import type { ExportContext, Exporter } from './export-context.js';
import { streamQuery } from './query-stream.js';
import { typedSelect, valuesOf, type CellKind } from './sql-cells.js';

/** Bytes of the IPC end-of-stream marker (continuation, zero length). */
const END_OF_STREAM = 8;

/** Arrow IPC stream of the rows, columns named as in the other exports. */
async function writeArrow(context: ExportContext) {
  const {
    Bool,
    Field,
    Float64,
    Int64,
    List,
    makeData,
    RecordBatch,
    Schema,
    Struct,
    Table,
    tableToIPC,
    Utf8,
    vectorFromArray,
  } = await import('apache-arrow');
  const ARROW_TYPES: Record<CellKind, () => DataType> = {
    int: () => new Int64(),
    double: () => new Float64(),
    bool: () => new Bool(),
    text: () => new Utf8(),
    list: () => new List(new Field('item', new Utf8(), true)),
  };
  const { cells, sql } = typedSelect(context, context.columns);
  const schema = new Schema(
    cells.map(
      (c) =>
        new Field(context.options.headers.get(c.column.key) ?? c.column.key, ARROW_TYPES[c.kind](), true),
    ),
  );
  // Each chunk is serialised as a one-batch IPC stream; the schema message (the same every
  // time) is kept only once and the end-of-stream marker only at the end.
  const empty = tableToIPC(new Table(schema), 'stream');
  const schemaBytes = empty.length - END_OF_STREAM;
  const encode = (chunk: DuckDBDataChunk, first: boolean): Buffer => {
    const children = cells.map(
      (c, i) => vectorFromArray(valuesOf(chunk, i, c.kind) as never[], ARROW_TYPES[c.kind]()).data[0]!,
    );
    const type = new Struct(schema.fields);
    const data = makeData({ type, length: chunk.rowCount, nullCount: 0, children });
    const bytes = tableToIPC(new Table([new RecordBatch(schema, data)]), 'stream');
    return Buffer.from(bytes.subarray(first ? 0 : schemaBytes, bytes.length - END_OF_STREAM));
  };
  let wroteRows = false;
  const counted = (chunk: DuckDBDataChunk, first: boolean): Buffer => {
    wroteRows = true;
    return encode(chunk, first);
  };
  const tail = (): Buffer => Buffer.from(wroteRows ? empty.subarray(schemaBytes) : empty);
  return streamQuery(context.engine, sql, counted, { head: '', tail }, context.signal);
}

export const ARROW_FORMAT = {
  arrow: {
    contentType: 'application/vnd.apache.arrow.stream',
    extension: 'arrow',
    output: 'json',
    geo: false,
    write: writeArrow,
  },
} satisfies Record<string, Exporter>;
