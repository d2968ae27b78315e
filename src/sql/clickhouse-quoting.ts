// Quoting for ClickHouse SQL text: in its quoted names and string literals a backslash escapes the
// next character, so backslashes are doubled as well as the quote (ClickHouse 18.16's lexer).
// Beside DuckDB's quoting in src/sql/: one place for every spelling of a quoted name or value.

/** Quotes an identifier: "name", with backslashes and double quotes escaped. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/** Quotes a string literal: 'text', with backslashes and single quotes escaped; NUL is refused. */
export function quoteString(value: string): string {
  if (value.includes('\0')) throw new Error('NUL character in SQL string literal');
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}
