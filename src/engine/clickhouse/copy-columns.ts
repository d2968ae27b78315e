// The SELECT whose TabSeparated output tsv-to-csv.ts rewrites as a CSV copy, and each column's
// plan there: most columns as they are (ClickHouse's TSV writes texts, integers, booleans, dates
// and instants in the bytes the copy wants, but for its escapes, `\N`, day 0 and the zone, which
// the rewrite handles), the others made a text in SQL first: a double in DuckDB's digits, a list
// as DuckDB writes it. A CSV copy has DuckDB's COPY bytes (copy-text.ts). A Parquet copy's rows go
// to the Parquet encoder in ClickHouse's own CSV, untouched: its SELECT makes dates and instants
// integers, a list its JSON text, a point two cells (EncodedColumn). Where a column's type has no
// spelling here (JSON values, Decimal, FixedString...), null: the copy goes the values' way (engine.ts).
import { jsonStringSql } from '../../odsql/dialect/clickhouse/json-text.js';
import { duckdbDoubleTextSql } from '../../odsql/dialect/clickhouse/number-text.js';
import { quoteIdentifier } from '../../sql/clickhouse-quoting.js';
import type { CopyFormat, EncodedColumn } from '../engine.js';
import type { CellPlan, CellQuote } from './tsv-to-csv.js';
import type { ResultColumn } from './tsv-rows.js';
import { BOOLEAN_TYPE } from './types.js';

type CsvFormat = Extract<CopyFormat, { format: 'csv' }>;

/** A copy's SELECT over the result, and how each of its columns' cells are rewritten. */
export interface CopyColumns {
  readonly sql: string;
  readonly plans: readonly CellPlan[];
}

const LIST = /^Array\(String\)$/;
const INTEGER = /^U?Int(?:8|16|32|64)$/;
const INSTANT = /^DateTime(?:\('UTC'\))?$/;
const TEXT = /^(?:String|UUID|Enum(?:8|16)\(.*\))$/s;

/** A column's parts: its name quoted, its type without Nullable, whether it is Nullable. */
function parts(column: ResultColumn): { name: string; inner: string; nullable: boolean } {
  const inner = /^Nullable\((.*)\)$/s.exec(column.type)?.[1];
  return { name: quoteIdentifier(column.name), inner: inner ?? column.type, nullable: inner !== undefined };
}

/** A text made in SQL from a value not null (`text` of `x`), null where the column's value is. */
const madeText = (name: string, nullable: boolean, text: (x: string) => string): string =>
  nullable ? `if(isNull(${name}), NULL, ${text(`assumeNotNull(${name})`)})` : text(name);

/** A list's text made in SQL (`text` of the list), null for an empty list (it stands for null: types.ts). */
const listText = (name: string, text: (x: string) => string): string =>
  `if(empty(${name}), NULL, ${text(name)})`;

/** One column of a CSV copy: its SQL, its plan; null when its type has no spelling here. */
function csvColumn(column: ResultColumn, format: CsvFormat): { sql: string; plan: CellPlan } | null {
  const { name, inner, nullable } = parts(column);
  const forced = format.forceQuote.includes(column.name);
  const text: CellQuote = forced ? 'always' : 'needed';
  // A date's text holds digits, '-', ':', ' ' and '+': quoted only where the delimiter is one.
  const day: CellQuote = forced ? 'always' : /[0-9\-: +]/.test(format.delimiter) ? 'needed' : 'never';
  if (inner === 'String') return { sql: name, plan: { kind: 'text', quote: text } };
  if (inner === BOOLEAN_TYPE || INTEGER.test(inner))
    return { sql: name, plan: { kind: 'plain', quote: 'never' } };
  if (inner === 'Float64')
    return { sql: madeText(name, nullable, duckdbDoubleTextSql), plan: { kind: 'plain', quote: 'never' } };
  if (inner === 'Date') return { sql: name, plan: { kind: 'date', quote: day } };
  if (INSTANT.test(inner)) return { sql: name, plan: { kind: 'instant', quote: day } };
  // DuckDB writes a list of texts [a, b], quoted as a text.
  if (LIST.test(inner))
    return {
      sql: listText(name, (x) => `concat('[', arrayStringConcat(${x}, ', '), ']')`),
      plan: { kind: 'text', quote: text },
    };
  return null;
}

/** Each column's SQL and plan, or null when one has none: the SELECT of them over `selectSql`. */
function selectOf(
  selectSql: string,
  made: readonly ({ sql: string; plan: CellPlan } | null)[],
): CopyColumns | null {
  if (made.some((m) => m === null)) return null;
  return {
    sql: `SELECT ${made.map((m) => m!.sql).join(', ')} FROM (${selectSql})`,
    plans: made.map((m) => m!.plan),
  };
}

/** A CSV copy's SELECT and plans over `selectSql`; null when a column's type has no spelling here. */
export function csvColumns(
  selectSql: string,
  columns: readonly ResultColumn[],
  format: CsvFormat,
): CopyColumns | null {
  return selectOf(
    selectSql,
    columns.map((column) => csvColumn(column, format)),
  );
}

/**
 * One column of the Parquet encoder's CSV (EncodedColumn) of kind `kind` as ClickHouse's CSV
 * writes it (nulls `\N`, texts quoted): its SQL; null when its type has no spelling here.
 */
function encodedColumn(column: ResultColumn, kind: EncodedColumn['kind']): string | null {
  const { name, inner } = parts(column);
  switch (kind) {
    case 'text':
      // Texts only: ClickHouse's CSV quotes a String (an Enum's or UUID's text made one).
      return TEXT.test(inner) ? (inner === 'String' ? name : `toString(${name})`) : null;
    case 'int':
    case 'bool':
      return name;
    case 'double':
      // ClickHouse's digits, which the encoder reads (nan, inf alike); Decimal goes the values' way.
      return /^Float(?:32|64)$/.test(inner) ? name : null;
    case 'date':
      // Days and seconds since the epoch: DuckDB reads an integer at a fraction of a date's text
      // cost, and ClickHouse's day 0 ('0000-00-00') is 0.
      return `toUInt16(${name})`;
    case 'instant':
      return `toUInt32(${name})`;
    case 'point':
      // Two cells, lon and lat, \N where null.
      return `tupleElement(${name}, 1), tupleElement(${name}, 2)`;
    case 'text-list':
      // The JSON array of the items (parquet-rows.ts: JSON.stringify), quoted by ClickHouse's CSV.
      return LIST.test(inner)
        ? listText(
            name,
            (x) =>
              `concat('[', arrayStringConcat(arrayMap(item -> ${jsonStringSql('item')}, ${x}), ','), ']')`,
          )
        : null;
  }
}

/**
 * The SELECT over `selectSql` whose CSV (ClickHouse's FORMAT CSV) the Parquet encoder reads as
 * `kinds`; null when a column has no spelling here.
 */
export function encodedColumnsOf(
  selectSql: string,
  columns: readonly ResultColumn[],
  kinds: readonly EncodedColumn['kind'][],
): string | null {
  const made = columns.map((column, i) => encodedColumn(column, kinds[i]!));
  if (made.some((m) => m === null)) return null;
  return `SELECT ${made.join(', ')} FROM (${selectSql})`;
}
