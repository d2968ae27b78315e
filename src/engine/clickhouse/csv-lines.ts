// Copies whose lines ClickHouse writes itself: each row one String made in ClickHouse's SQL, read as
// TabSeparatedRaw (the line as it is, then a newline) and passed on as bytes, no value through
// JavaScript. A CSV copy's lines have the bytes copy-text.ts writes from values (DuckDB's COPY
// bytes); a Parquet copy's are the CSV the Parquet encoder reads (parquet-rows.ts). Where a
// column's type has no spelling here (JSON values, Decimal, FixedString...), the copy goes the
// values' way (engine.ts).
import { jsonStringSql } from '../../odsql/dialect/clickhouse/json-text.js';
import { duckdbDoubleTextSql } from '../../odsql/dialect/clickhouse/number-text.js';
import { quoteIdentifier, quoteString } from '../../sql/clickhouse-quoting.js';
import type { CopyFormat, EncodedColumn } from '../engine.js';
import type { ResultColumn } from './tsv-rows.js';
import { BOOLEAN_TYPE, ZERO_DATE_TEXT } from './types.js';

type CsvFormat = Extract<CopyFormat, { format: 'csv' }>;

const LIST = /^Array\(String\)$/;
const INTEGER = /^U?Int(?:8|16|32|64)$/;
const INSTANT = /^DateTime(?:\('UTC'\))?$/;

/** Day 0 and second 0 are written as '0000-00-00...' though they are the epoch (types.ts). */
const dateSql = (x: string): string =>
  `if(toString(${x}) = ${quoteString(ZERO_DATE_TEXT)}, '1970-01-01', toString(${x}))`;
const instantSql = (x: string): string =>
  `concat(if(startsWith(toString(${x}), ${quoteString(ZERO_DATE_TEXT)}), '1970-01-01 00:00:00', toString(${x})), '+00')`;

/**
 * A CSV cell's text from a value not null `x` of type `inner`, and whether it is text (quoted as
 * DuckDB quotes texts); null when the type has no spelling here.
 */
function cellSql(inner: string, x: string): { sql: string; text: boolean } | null {
  if (inner === 'String') return { sql: x, text: true };
  if (inner === BOOLEAN_TYPE || INTEGER.test(inner)) return { sql: `toString(${x})`, text: false };
  if (inner === 'Float64') return { sql: duckdbDoubleTextSql(x), text: false };
  if (inner === 'Date') return { sql: dateSql(x), text: true };
  if (INSTANT.test(inner)) return { sql: instantSql(x), text: true };
  // DuckDB writes a list of texts [a, b], quoted as a text.
  if (LIST.test(inner)) return { sql: `concat('[', arrayStringConcat(${x}, ', '), ']')`, text: true };
  return null;
}

/** DuckDB's CSV quoting of a text `s`: when forced, empty, or holding the delimiter, a quote or a line break. */
function quotedSql(s: string, forced: boolean, delimiter: string): string {
  const quoted = `concat('"', replaceAll(${s}, '"', '""'), '"')`;
  if (forced) return quoted;
  const special = quoteString(`[${delimiter.replace(/[\\\]^-]/g, '\\$&')}"\n\r]`);
  return `if(${s} = '' OR match(${s}, ${special}), ${quoted}, ${s})`;
}

/** The column's name, its type without Nullable, the value known not null, and the test of null. */
function parts(column: ResultColumn): { inner: string; x: string; isNull: string | null } {
  const name = quoteIdentifier(column.name);
  const nullable = /^Nullable\((.*)\)$/s.exec(column.type);
  if (nullable) return { inner: nullable[1]!, x: `assumeNotNull(${name})`, isNull: `isNull(${name})` };
  // An empty list stands for null (types.ts).
  if (LIST.test(column.type)) return { inner: column.type, x: name, isNull: `empty(${name})` };
  return { inner: column.type, x: name, isNull: null };
}

/** One String a row: the cells joined by `separator` (concat takes two arguments at least). */
const linesSql = (selectSql: string, cells: readonly string[], separator: string): string =>
  `SELECT concat(${cells.join(`, ${quoteString(separator)}, `)}, '') FROM (${selectSql})`;

/**
 * The SELECT of one String a row, each the line (without its newline) copy-text.ts writes for the
 * row of `selectSql` with `columns`; null when a column's type has no spelling here.
 */
export function csvLinesSql(
  selectSql: string,
  columns: readonly ResultColumn[],
  format: CsvFormat,
): string | null {
  const cells: string[] = [];
  for (const column of columns) {
    const { inner, x, isNull } = parts(column);
    const cell = cellSql(inner, x);
    if (!cell) return null;
    const forced = format.forceQuote.includes(column.name);
    const text = cell.text ? quotedSql(cell.sql, forced, format.delimiter) : cell.sql;
    cells.push(isNull ? `if(${isNull}, '', ${text})` : text);
  }
  return linesSql(selectSql, cells, format.delimiter);
}

/** A text quoted as the encoder's CSV reads it. */
const encodedTextSql = (x: string): string => `concat('"', replaceAll(${x}, '"', '""'), '"')`;

/** A Parquet encoder's cell (EncodedColumn's CSV) of a value not null `x` of kind `kind`, of type `inner`. */
function encodedCellSql(kind: EncodedColumn['kind'], inner: string, x: string): string | null {
  switch (kind) {
    case 'text':
      return /^(?:String|UUID|Enum(?:8|16)\(.*\))$/s.test(inner) ? encodedTextSql(`toString(${x})`) : null;
    case 'int':
    case 'bool':
      return `toString(${x})`;
    case 'double':
      // The encoder reads ClickHouse's digits as JavaScript's (nan, inf alike); Decimal goes the values' way.
      return /^Float(?:32|64)$/.test(inner) ? `toString(${x})` : null;
    case 'date':
      return dateSql(x);
    case 'instant':
      return instantSql(x);
    case 'point': {
      const part = (i: number) => `tupleElement(${x}, ${i})`;
      const text = (i: number) => `if(isNull(${part(i)}), '', toString(assumeNotNull(${part(i)})))`;
      return `concat(${text(1)}, ',', ${text(2)})`;
    }
    case 'text-list':
      // The JSON array of the items (parquet-rows.ts: JSON.stringify), quoted.
      return LIST.test(inner)
        ? encodedTextSql(
            `concat('[', arrayStringConcat(arrayMap(item -> ${jsonStringSql('item')}, ${x}), ','), ']')`,
          )
        : null;
  }
}

/**
 * The SELECT of one String a row, each the CSV line (without its newline) the Parquet encoder reads
 * for the row of `selectSql` with `columns` of `kinds`; null when a column has no spelling here.
 */
export function encodedLinesSql(
  selectSql: string,
  columns: readonly ResultColumn[],
  kinds: readonly EncodedColumn['kind'][],
): string | null {
  const cells: string[] = [];
  for (const [i, column] of columns.entries()) {
    const { inner, x, isNull } = parts(column);
    const cell = encodedCellSql(kinds[i]!, inner, x);
    if (!cell) return null;
    // A point is never null (its parts are), a null point's cells are both empty.
    cells.push(isNull ? `if(${isNull}, '', ${cell})` : cell);
  }
  return linesSql(selectSql, cells, ',');
}
