// Copies whose lines ClickHouse writes itself: each row one String made in ClickHouse's SQL, read as
// TabSeparatedRaw (the line as it is, then a newline) and passed on as bytes, no value through
// JavaScript. A CSV copy's lines have the bytes copy-text.ts writes from values (DuckDB's COPY
// bytes); a Parquet copy's are the CSV the Parquet encoder reads (parquet-rows.ts). Where a
// column's type has no spelling here (lists, JSON values...), the copy goes the values' way.
import { duckdbDoubleTextSql } from '../../odsql/dialect/clickhouse/number-text.js';
import { quoteIdentifier, quoteString } from '../../sql/clickhouse-quoting.js';
import type { CopyFormat, EncodedColumn } from '../engine.js';
import type { ResultColumn } from './tsv-rows.js';
import { BOOLEAN_TYPE, ZERO_DATE_TEXT } from './types.js';

type CsvFormat = Extract<CopyFormat, { format: 'csv' }>;

/** A cell's text from a value not null `x` of type `inner`, and whether it is text (quoted as such). */
function cellSql(inner: string, x: string): { sql: string; text: boolean } | null {
  if (inner === 'String') return { sql: x, text: true };
  if (inner === BOOLEAN_TYPE) return { sql: `toString(${x})`, text: false };
  if (/^U?Int(?:8|16|32|64)$/.test(inner)) return { sql: `toString(${x})`, text: false };
  if (inner === 'Float64') return { sql: duckdbDoubleTextSql(x), text: false };
  // Day 0 and second 0 are written as '0000-00-00...' though they are the epoch (types.ts).
  const zero = quoteString(ZERO_DATE_TEXT);
  if (inner === 'Date')
    return { sql: `if(toString(${x}) = ${zero}, '1970-01-01', toString(${x}))`, text: true };
  if (/^DateTime(?:\('UTC'\))?$/.test(inner)) {
    const epoch = "'1970-01-01 00:00:00'";
    return {
      sql: `concat(if(startsWith(toString(${x}), ${zero}), ${epoch}, toString(${x})), '+00')`,
      text: true,
    };
  }
  return null;
}

/** DuckDB's CSV quoting of a text `s`: when forced, empty, or holding the delimiter, a quote or a line break. */
function quotedSql(s: string, forced: boolean, delimiter: string): string {
  if (forced) return `concat('"', replaceAll(${s}, '"', '""'), '"')`;
  const special = quoteString(`[${delimiter.replace(/[\\\]^-]/g, '\\$&')}"\n\r]`);
  return `if(${s} = '' OR match(${s}, ${special}), concat('"', replaceAll(${s}, '"', '""'), '"'), ${s})`;
}

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
    const nullable = /^Nullable\((.*)\)$/s.exec(column.type);
    const name = quoteIdentifier(column.name);
    const cell = cellSql(nullable ? nullable[1]! : column.type, nullable ? `assumeNotNull(${name})` : name);
    if (!cell) return null;
    const forced = format.forceQuote.includes(column.name);
    const text = cell.text ? quotedSql(cell.sql, forced, format.delimiter) : cell.sql;
    cells.push(nullable ? `if(isNull(${name}), '', ${text})` : text);
  }
  const line = cells.join(`, ${quoteString(format.delimiter)}, `);
  // concat takes two arguments at least.
  return `SELECT concat(${line}, '') FROM (${selectSql})`;
}

/** A Parquet encoder's cell (EncodedColumn's CSV) of a value not null `x` of kind `kind`, of type `inner`. */
function encodedCellSql(kind: EncodedColumn['kind'], inner: string, x: string): string | null {
  const zero = quoteString(ZERO_DATE_TEXT);
  switch (kind) {
    case 'text':
      return /^(?:String|UUID|Enum(?:8|16)\(.*\))$/s.test(inner)
        ? `concat('"', replaceAll(toString(${x}), '"', '""'), '"')`
        : null;
    case 'int':
    case 'double':
    case 'bool':
      return `toString(${x})`;
    case 'date':
      return `if(toString(${x}) = ${zero}, '1970-01-01', toString(${x}))`;
    case 'instant':
      return `concat(if(startsWith(toString(${x}), ${zero}), '1970-01-01 00:00:00', toString(${x})), '+00')`;
    case 'point': {
      const part = (i: number) => `tupleElement(${x}, ${i})`;
      const text = (i: number) => `if(isNull(${part(i)}), '', toString(assumeNotNull(${part(i)})))`;
      return `concat(${text(1)}, ',', ${text(2)})`;
    }
    case 'text-list':
      return null;
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
    const nullable = /^Nullable\((.*)\)$/s.exec(column.type);
    const name = quoteIdentifier(column.name);
    const cell = encodedCellSql(
      kinds[i]!,
      nullable ? nullable[1]! : column.type,
      nullable ? `assumeNotNull(${name})` : name,
    );
    if (!cell) return null;
    cells.push(nullable ? `if(isNull(${name}), '', ${cell})` : cell);
  }
  return `SELECT concat(${cells.join(", ',', ")}, '') FROM (${selectSql})`;
}
