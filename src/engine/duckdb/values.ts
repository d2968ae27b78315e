// DuckDB values -> JSON values, one converter per type id (duckdb-node-neo's pattern, our choices).
// The compiler already shapes dates, datetimes, points and shapes in SQL; this only maps types.
import {
  DuckDBTypeId,
  arrayFromArrayValue,
  arrayFromListValue,
  booleanFromValue,
  createDuckDBValueConverter,
  doubleFromDecimalValue,
  objectFromStructValue,
  stringFromValue,
  type DuckDBDataChunk,
  type DuckDBMaterializedResult,
  type DuckDBValue,
  type DuckDBValueConverter,
} from '@duckdb/node-api';
import type { JsonValue } from '../engine.js';
import { loopTurn } from '../slices.js';

type Converter = DuckDBValueConverter<JsonValue>;

/** Integers of any width become JS numbers: counts and sums beyond 2^53 do not occur in a portal. */
const toNumber: Converter = (value) => Number(value);

/** A finite double, or null: JSON has no NaN or Infinity. */
const toFiniteNumber: Converter = (value) => {
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
};

const text: Converter = (value) => stringFromValue(value);
const unsupported: Converter = () => null;

const CONVERTERS = {
  [DuckDBTypeId.INVALID]: unsupported,
  [DuckDBTypeId.BOOLEAN]: booleanFromValue,
  [DuckDBTypeId.TINYINT]: toNumber,
  [DuckDBTypeId.SMALLINT]: toNumber,
  [DuckDBTypeId.INTEGER]: toNumber,
  [DuckDBTypeId.BIGINT]: toNumber,
  [DuckDBTypeId.UTINYINT]: toNumber,
  [DuckDBTypeId.USMALLINT]: toNumber,
  [DuckDBTypeId.UINTEGER]: toNumber,
  [DuckDBTypeId.UBIGINT]: toNumber,
  [DuckDBTypeId.HUGEINT]: toNumber,
  [DuckDBTypeId.UHUGEINT]: toNumber,
  [DuckDBTypeId.BIGNUM]: toNumber,
  [DuckDBTypeId.FLOAT]: toFiniteNumber,
  [DuckDBTypeId.DOUBLE]: toFiniteNumber,
  [DuckDBTypeId.DECIMAL]: (value) => doubleFromDecimalValue(value),
  [DuckDBTypeId.VARCHAR]: text,
  [DuckDBTypeId.DATE]: text,
  [DuckDBTypeId.TIME]: text,
  [DuckDBTypeId.TIME_NS]: text,
  [DuckDBTypeId.TIME_TZ]: text,
  [DuckDBTypeId.TIMESTAMP]: text,
  [DuckDBTypeId.TIMESTAMP_S]: text,
  [DuckDBTypeId.TIMESTAMP_MS]: text,
  [DuckDBTypeId.TIMESTAMP_NS]: text,
  [DuckDBTypeId.TIMESTAMP_TZ]: text,
  [DuckDBTypeId.INTERVAL]: text,
  [DuckDBTypeId.UUID]: text,
  [DuckDBTypeId.ENUM]: text,
  [DuckDBTypeId.BIT]: text,
  [DuckDBTypeId.BLOB]: text,
  [DuckDBTypeId.LIST]: arrayFromListValue,
  [DuckDBTypeId.ARRAY]: arrayFromArrayValue,
  [DuckDBTypeId.STRUCT]: objectFromStructValue as Converter,
  [DuckDBTypeId.MAP]: unsupported,
  [DuckDBTypeId.UNION]: unsupported,
  [DuckDBTypeId.VARIANT]: unsupported,
  [DuckDBTypeId.GEOMETRY]: unsupported,
  [DuckDBTypeId.ANY]: unsupported,
  [DuckDBTypeId.SQLNULL]: () => null,
  [DuckDBTypeId.STRING_LITERAL]: text,
  [DuckDBTypeId.INTEGER_LITERAL]: toNumber,
} satisfies Record<DuckDBTypeId, Converter>;

const jsonConverter = createDuckDBValueConverter<JsonValue>(CONVERTERS);

/**
 * The chunks of a materialized result, read at once: each `fetchChunk` of a reader is a trip
 * through libuv's thread pool and back, two or more for every statement (the last finds no rows),
 * while the chunks of a materialized result are already in memory.
 */
export function chunksOf(result: DuckDBMaterializedResult): DuckDBDataChunk[] {
  return Array.from({ length: result.chunkCount }, (_, i) => result.getChunk(i));
}

/**
 * Converts a result to JSON objects keyed by column name, in slices of the event loop (node-api
 * visits every value, and a facets request's hundred thousand counts held the loop for most of a
 * second at once: bench/README.md, Measurements behind the code). Result columns typed JSON (an
 * alias of VARCHAR that only the result's column types carry, not its vectors) are parsed so they
 * nest as objects rather than strings.
 */
export async function readJsonRows(result: DuckDBMaterializedResult): Promise<Record<string, JsonValue>[]> {
  const names = result.columnNames();
  const isJson = names.map((_, i) => result.columnType(i).alias === 'JSON');
  const valueOf = (value: JsonValue | undefined, i: number): JsonValue =>
    isJson[i] && typeof value === 'string' ? (JSON.parse(value) as JsonValue) : (value ?? null);
  const rows: Record<string, JsonValue>[] = [];
  for (const chunk of chunksOf(result)) {
    for (let row = 0; row < chunk.rowCount; row++) {
      // A chunk is 2,048 rows: the loop may turn every 64.
      if (row % 64 === 0) await loopTurn();
      const values = chunk.convertRowValues<JsonValue>(row, jsonConverter);
      // Object.fromEntries defines own properties: a column labeled `__proto__` is a key like any
      // other (an assignment would set the object's prototype and drop the column).
      rows.push(Object.fromEntries(names.map((name, i) => [name, valueOf(values[i], i)])));
    }
  }
  return rows;
}

/**
 * Parameters for DuckDB, or none: given any array, even empty, the client prepares the statement
 * before running it, which planned it twice and slowed every short query (bench/README.md,
 * Reading the reports).
 */
export const bound = (params: readonly DuckDBValue[]): DuckDBValue[] | undefined =>
  params.length > 0 ? [...params] : undefined;
