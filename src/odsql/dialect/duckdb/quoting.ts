// Quoting for DuckDB SQL text: the only two ways a name or a value is written into SQL, by the
// compiler here and, importing this file, by the DuckDB engine, ingest and the search index build.

/** Quotes an identifier: "name", with embedded double quotes doubled. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Quotes a string literal: 'text', with embedded single quotes doubled; NUL is refused. */
export function quoteString(value: string): string {
  if (value.includes('\0')) throw new Error('NUL character in SQL string literal');
  return `'${value.replaceAll("'", "''")}'`;
}
