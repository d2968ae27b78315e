// SQL that formats one output value as text for the text formats (XML, Turtle, cells), so that
// DuckDB does the per-value work and JS only moves the resulting strings.
import type { OutputColumn } from '../odsql/index.js';
import { quoteIdentifier, quoteString } from '../odsql/dialect/duckdb/quoting.js';

/** The value as VARCHAR (null stays null): points as "lat, lon", lists joined by `separator`. */
export function cellText(column: OutputColumn, separator: string): string {
  const name = quoteIdentifier(column.key);
  if (column.multivalued) return `array_to_string(${name}, ${quoteString(separator)})`;
  if (column.type === 'geo_point_2d') {
    // As doubles: a point's storage type may be DECIMAL, whose text keeps trailing zeros.
    return `CASE WHEN ${name} IS NULL THEN NULL ELSE CAST(${name}.lat AS DOUBLE) || ', ' || CAST(${name}.lon AS DOUBLE) END`;
  }
  return `CAST(${name} AS VARCHAR)`;
}

/** XML character data of a VARCHAR expression: escaped, characters XML 1.0 forbids removed. */
export function xmlEscaped(sql: string): string {
  const replacements: [string, string][] = [
    ['&', '&amp;'],
    ['<', '&lt;'],
    ['>', '&gt;'],
    ['"', '&quot;'],
  ];
  const stripped = `regexp_replace(${sql}, '[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F]', '', 'g')`;
  return replacements.reduce((inner, [from, to]) => `replace(${inner}, '${from}', '${to}')`, stripped);
}

/** XML text of a literal string (for names written from JS into SQL or into documents). */
export function xmlText(value: string): string {
  return value
    .replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]/g, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/** An XML element name made of a key (field names already are; expressions are not). */
export function xmlName(key: string): string {
  const cleaned = key.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

/** A Turtle string literal body of a VARCHAR expression (quotes, backslashes, line breaks escaped). */
export function turtleEscaped(sql: string): string {
  const replacements: [string, string][] = [
    ['\\', '\\\\'],
    ['"', '\\"'],
    ['\n', '\\n'],
    ['\r', '\\r'],
    ['\t', '\\t'],
  ];
  return replacements.reduce(
    (inner, [from, to]) => `replace(${inner}, ${quoteString(from)}, ${quoteString(to)})`,
    sql,
  );
}

/**
 * VARCHAR of a DOUBLE as the record API writes it: a whole value without `.0` (`2`, not `2.0`),
 * others in DuckDB's shortest round-trip text (`0.25`, `1e+20`, `inf`, `nan`).
 */
export function doubleText(sql: string): string {
  return `CASE WHEN ${sql} = trunc(${sql}) AND abs(${sql}) < 1e15 THEN CAST(CAST(${sql} AS BIGINT) AS VARCHAR) ELSE CAST(${sql} AS VARCHAR) END`;
}

/**
 * How a writer of typed cells receives a column: the kind of JS value the engine hands over. Dates
 * and datetimes come as their JSON text ('YYYY-MM-DD', ISO 8601 with the offset of the
 * request's time zone), which each writer turns into its own date type.
 */
export type CellKind = 'int' | 'double' | 'bool' | 'date' | 'datetime' | 'text' | 'list';

/** The kind of a column and the SQL giving its value as that kind. */
export function typedCell(column: OutputColumn, separator: string): { kind: CellKind; sql: string } {
  const name = quoteIdentifier(column.key);
  if (column.multivalued) return { kind: 'list', sql: `CAST(${name} AS VARCHAR[])` };
  const kinds: Partial<Record<OutputColumn['type'], CellKind>> = {
    int: 'int',
    double: 'double',
    number: 'double',
    boolean: 'bool',
    date: 'date',
    datetime: 'datetime',
  };
  const kind = kinds[column.type] ?? 'text';
  const casts: Record<CellKind, string> = {
    int: `CAST(${name} AS BIGINT)`,
    double: `CAST(${name} AS DOUBLE)`,
    bool: `CAST(${name} AS BOOLEAN)`,
    date: cellText(column, separator),
    datetime: cellText(column, separator),
    text: cellText(column, separator),
    list: name,
  };
  return { kind, sql: casts[kind] };
}

/** A typed cell of one output column (`K`: the kinds of the writer, typedCell's by default). */
export interface TypedCell<K extends string = CellKind> {
  readonly column: OutputColumn;
  readonly kind: K;
  readonly sql: string;
}

/**
 * SELECT of typed cells of `columns` over the compiled rows, `leading` expressions first; `cell`
 * gives each column's kind and SQL (typedCell, or a writer's own that falls back to it).
 */
export function typedSelect<K extends string = CellKind>(
  context: { readonly sql: string; readonly options: { readonly listSeparator: string } },
  columns: readonly OutputColumn[],
  leading: readonly string[] = [],
  cell: (column: OutputColumn, separator: string) => { kind: K; sql: string } = typedCell as never,
): { cells: TypedCell<K>[]; sql: string } {
  const cells = columns.map((c) => ({ column: c, ...cell(c, context.options.listSeparator) }));
  const list = [...leading, ...cells.map((c) => c.sql)];
  return { cells, sql: `SELECT ${list.join(', ') || 'NULL'} FROM (${context.sql})` };
}
