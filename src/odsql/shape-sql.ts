// Shaped rows in the SQL of the query's engine: DuckDB's entry per cell kind (shape.ts) here,
// ClickHouse's in dialect/clickhouse/cells.ts, and the SELECT of the shaped columns over a compiled
// query.
import type { CompiledQuery } from './compile.js';
import type { CellSpelling } from './dialect/cell-spelling.js';
import { CELLS as CLICKHOUSE_CELLS, maxBytesSql as clickhouseMaxBytes } from './dialect/clickhouse/cells.js';
import type { Output } from './dialect/dialect.js';
import { rdfLexicalSql, turtleStringSql, uriComponentSql } from './dialect/duckdb/linked-data.js';
import { quoteIdentifier, quoteString } from './dialect/duckdb/quoting.js';
import { excelSerialSql, numberTextSql, xmlEscapedSql } from './dialect/duckdb/text-forms.js';
import { RECORD_ID_OUTPUT } from './hidden-columns.js';
import type { Cell, CellType, ShapedColumn } from './shape.js';

/** The name of the element of a list inside an 'each' cell. */
const ITEM = 'v';

const CASTS = {
  int: 'BIGINT',
  double: 'DOUBLE',
  bool: 'BOOLEAN',
  date: 'DATE',
  instant: 'TIMESTAMPTZ',
  'text-list': 'VARCHAR[]',
} as const satisfies Record<CellType, string>;

const WRITERS: CellSpelling = {
  value: ({ column }) => quoteIdentifier(column.key),
  text: ({ column, separator }) => {
    const name = quoteIdentifier(column.key);
    if (column.multivalued) return `array_to_string(${name}, ${quoteString(separator)})`;
    if (column.type === 'geo_point_2d') {
      // As doubles: a point's storage type may be DECIMAL, whose text keeps trailing zeros.
      return `CASE WHEN ${name} IS NULL THEN NULL ELSE CAST(${name}.lat AS DOUBLE) || ', ' || CAST(${name}.lon AS DOUBLE) END`;
    }
    return `CAST(${name} AS VARCHAR)`;
  },
  'number-text': ({ cell, wholeBelow }) => numberTextSql(cellSql(cell), wholeBelow),
  finite: ({ cell }) => {
    const n = cellSql(cell);
    return `CASE WHEN isfinite(${n}) THEN ${n} END`;
  },
  cast: ({ column, type }) => `CAST(${quoteIdentifier(column.key)} AS ${CASTS[type]})`,
  'record-id': () => quoteIdentifier(RECORD_ID_OUTPUT),
  literal: ({ value }) => (value === null ? 'NULL' : quoteString(value)),
  concat: ({ parts }) => parts.map(cellSql).join(' || '),
  coalesce: ({ cell, otherwise }) => `coalesce(${cellSql(cell)}, ${cellSql(otherwise)})`,
  join: ({ cell, separator }) => `array_to_string(${cellSql(cell)}, ${quoteString(separator)})`,
  xml: ({ cell }) => xmlEscapedSql(cellSql(cell)),
  'json-text': ({ cell }) => `CAST(${cellSql(cell)} AS VARCHAR)`,
  'when-present': ({ column, cell }) => {
    const name = quoteIdentifier(column.key);
    const empty = column.multivalued ? ` OR len(${name}) = 0` : '';
    return `CASE WHEN ${name} IS NULL${empty} THEN NULL ELSE ${cellSql(cell)} END`;
  },
  separated: ({ parts, separator }) =>
    `concat_ws(${[quoteString(separator), ...parts.map(cellSql)].join(', ')})`,
  each: ({ column, item }) =>
    `list_transform(${quoteIdentifier(column.key)}, lambda ${ITEM}: ${cellSql(item)})`,
  item: () => ITEM,
  'rdf-lexical': ({ type, of }) => rdfLexicalSql(type, cellSql(of)),
  'turtle-string': ({ cell }) => turtleStringSql(cellSql(cell)),
  'uri-component': ({ cell }) => uriComponentSql(cellSql(cell)),
  'excel-serial': ({ cell, from }) => excelSerialSql(cellSql(cell), from),
  object: ({ form, entries }) => {
    if (form === 'struct')
      return `{${entries.map(([k, v]) => `${quoteString(k)}: ${cellSql(v)}`).join(', ')}}`;
    if (form === 'json')
      return `json_object(${entries.map(([k, v]) => `${quoteString(k)}, ${cellSql(v)}`).join(', ')})`;
    const packed = entries.map(([k, v]) => `struct_pack(k := ${quoteString(k)}, v := ${cellSql(v)})`);
    return `to_json(map_from_entries(list_filter([${packed.join(', ')}], e -> e.v IS NOT NULL)))`;
  },
  'json-value': ({ column }) => {
    const name = quoteIdentifier(column.key);
    if (column.type === 'geo_point_2d')
      return `CASE WHEN ${name} IS NULL THEN NULL ELSE json_array(${name}.lat, ${name}.lon) END`;
    if (column.type === 'geo_shape') return `json_extract(${name}, '$.geometry')`;
    return `to_json(${name})`;
  },
  geometry: ({ column, form }) => {
    if (column === null) return form === 'json' ? 'NULL::JSON' : 'NULL';
    const name = quoteIdentifier(column.key);
    if (column.type === 'geo_shape') {
      const geometry = `json_extract(${name}, '$.geometry')`;
      return form === 'text' ? `CAST(${geometry} AS VARCHAR)` : geometry;
    }
    const point = {
      text: `'{"type":"Point","coordinates":[' || ${name}.lon || ',' || ${name}.lat || ']}'`,
      json: `json_object('type', 'Point', 'coordinates', json_array(${name}.lon, ${name}.lat))`,
      nested: `{'type': 'Point', 'coordinates': [${name}.lon, ${name}.lat]}`,
    }[form];
    return `CASE WHEN ${name} IS NULL THEN NULL ELSE ${point} END`;
  },
};

/** The SQL of one cell over the columns of a compiled query of DuckDB. */
function cellSql(cell: Cell): string {
  return (WRITERS[cell.kind] as (c: Cell) => string)(cell);
}

/** Cells as one engine writes them, and the longest text of a cell's values in bytes. */
interface ShapeSpelling {
  readonly cells: CellSpelling;
  readonly maxBytes: (sql: string) => string;
}

const SPELLINGS: ReadonlyMap<string, ShapeSpelling> = new Map([
  ['duckdb', { cells: WRITERS, maxBytes: (sql: string) => `max(strlen(CAST(${sql} AS VARCHAR)))` }],
  ['clickhouse', { cells: CLICKHOUSE_CELLS, maxBytes: clickhouseMaxBytes }],
]);

/** The spelling of the engine of `query`, and its writer of one cell. */
function spellingOf(query: CompiledQuery): ShapeSpelling & { readonly sql: (cell: Cell) => string } {
  const spelling = SPELLINGS.get(query.dialect.name);
  if (!spelling) throw new Error(`internal: no cells spelled for the ${query.dialect.name} dialect`);
  const sql = (cell: Cell): string =>
    (spelling.cells[cell.kind] as (c: Cell, sql: (c: Cell) => string, output: Output) => string)(
      cell,
      sql,
      query.output,
    );
  return { ...spelling, sql };
}

/**
 * The SELECT of one row over the rows of `query`: the longest text, in bytes, of each cell (0 for
 * a null entry), in columns w0, w1, ...
 */
export function textWidthsSql(query: CompiledQuery, cells: readonly (Cell | null)[]): string {
  const { sql, maxBytes } = spellingOf(query);
  const widths = cells.map((c, i) => {
    const width = c === null ? '0' : maxBytes(sql(c));
    return `${width} AS ${query.dialect.quoteIdentifier(`w${i}`)}`;
  });
  return `SELECT ${widths.join(', ') || 'NULL'} FROM (${query.sql})`;
}

/** The SELECT of `columns` over the rows of `query`. */
export function shapedSql(query: CompiledQuery, columns: readonly ShapedColumn[]): string {
  const { sql } = spellingOf(query);
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
