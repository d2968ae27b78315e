// Quoting for DuckDB SQL text: the only two ways a name or a value is written into DuckDB's SQL,
// by the ODSQL compiler's DuckDB dialect, the DuckDB engine, ingest and the search index build.
// It sits at the base of the tree (src/sql/) so every layer that writes SQL can import it.

/** Quotes an identifier: "name", with embedded double quotes doubled. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Quotes a string literal: 'text', with embedded single quotes doubled; NUL is refused. */
export function quoteString(value: string): string {
  if (value.includes('\0')) throw new Error('NUL character in SQL string literal');
  return `'${value.replaceAll("'", "''")}'`;
}
