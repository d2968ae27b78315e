// An export's DuckDB connection: whole results read as JSON, results streamed as engine-neutral
// chunks (JS values, or Arrow's layout read from the vectors), and COPY in DuckDB's own writers.
import duckdb from '@duckdb/node-bindings';
import {
  DuckDBTypeId,
  type DuckDBConnection,
  type DuckDBDataChunk,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { CellValue, Chunk, ColumnArrays, CopyFormat, ExportConnection, JsonValue } from '../engine.js';
import { quoteIdentifier, quoteString } from '../../sql/quoting.js';
import { arrowArrays } from './arrow-arrays.js';
import { readJsonRows } from './values.js';

/** Types whose DuckDB values already are JS's own (booleans, numbers, bigints, strings). */
const PLAIN: ReadonlySet<DuckDBTypeId> = new Set([
  DuckDBTypeId.BOOLEAN,
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UHUGEINT,
  DuckDBTypeId.FLOAT,
  DuckDBTypeId.DOUBLE,
  DuckDBTypeId.VARCHAR,
  DuckDBTypeId.SQLNULL,
]);

/** COPY's options for a format: CSV always with its header row. */
function copyOptions(format: CopyFormat): string {
  switch (format.format) {
    case 'csv': {
      const quoted = format.forceQuote.map(quoteIdentifier).join(', ');
      const force = quoted ? [`FORCE_QUOTE (${quoted})`] : [];
      return ['FORMAT csv', 'HEADER true', `DELIMITER ${quoteString(format.delimiter)}`, ...force].join(', ');
    }
    case 'json':
      return format.array ? 'FORMAT json, ARRAY true' : 'FORMAT json';
    case 'parquet':
      return `FORMAT parquet, COMPRESSION ${format.compression}`;
  }
}

/** A DuckDB value as a cell: lists and arrays as arrays of cells, other objects as their text. */
function cellOf(value: DuckDBValue): CellValue {
  if (value === null || typeof value !== 'object') return value;
  if ('items' in value && Array.isArray(value.items)) return (value.items as DuckDBValue[]).map(cellOf);
  return String(value);
}

/** One chunk of a DuckDB result, read by column on demand. */
class DuckDBChunk implements Chunk {
  constructor(
    private readonly chunk: DuckDBDataChunk,
    private readonly types: readonly DuckDBType[],
  ) {}

  get rowCount(): number {
    return this.chunk.rowCount;
  }

  values(index: number): readonly CellValue[] {
    const values = this.chunk.getColumnValues(index);
    return PLAIN.has(this.types[index]!.typeId) ? (values as CellValue[]) : values.map(cellOf);
  }

  arrays(index: number): ColumnArrays {
    const type = this.types[index]!;
    const vector = duckdb.data_chunk_get_vector(this.chunk.chunk, index);
    const itemTypeId = type.typeId === DuckDBTypeId.LIST ? type.valueType.typeId : null;
    return arrowArrays(vector, this.chunk.rowCount, type.typeId, itemTypeId);
  }
}

/** An export's DuckDB connection as the engine interface offers it, and COPY for the engine's own. */
export class DuckDBExportConnection implements ExportConnection {
  constructor(private readonly connection: DuckDBConnection) {}

  async readJson(sql: string): Promise<Record<string, JsonValue>[]> {
    return readJsonRows(await this.connection.run(sql));
  }

  async *chunks(sql: string): AsyncIterable<Chunk> {
    const result = await this.connection.stream(sql);
    const types = result.columnTypes();
    for (
      let chunk = await result.fetchChunk();
      chunk && chunk.rowCount > 0;
      chunk = await result.fetchChunk()
    ) {
      yield new DuckDBChunk(chunk, types);
    }
  }

  /** Runs `COPY (selectSql) TO file (...)`: DuckDB writes the whole result itself, in `format`. */
  async copy(selectSql: string, file: string, format: CopyFormat): Promise<void> {
    await this.connection.run(`COPY (${selectSql}) TO ${quoteString(file)} (${copyOptions(format)})`);
  }
}
