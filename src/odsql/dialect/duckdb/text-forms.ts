// DuckDB's spelling of the text forms that writers ask of a cell (shape.ts): XML character data,
// a number's text without `.0`, and Excel's serial day number of a date.

const XML_ESCAPES: readonly (readonly [string, string])[] = [
  ['&', '&amp;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
  ['"', '&quot;'],
];

/** SQL removing from a VARCHAR the characters XML 1.0 forbids (and so every syntax of a document). */
export function xmlAllowedSql(sql: string): string {
  return `regexp_replace(${sql}, '[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F]', '', 'g')`;
}

/** XML character data of a VARCHAR expression: escaped, characters XML 1.0 forbids removed. */
export function xmlEscapedSql(sql: string): string {
  return XML_ESCAPES.reduce(
    (inner, [from, to]) => `replace(${inner}, '${from}', '${to}')`,
    xmlAllowedSql(sql),
  );
}

/** VARCHAR of a number: whole values below `wholeBelow` without `.0`, -0 as 0, others DuckDB's text. */
export function numberTextSql(n: string, wholeBelow: number): string {
  return `CASE WHEN abs(${n}) < ${wholeBelow} AND ${n} = trunc(${n}) THEN CAST(CAST(${n} AS BIGINT) AS VARCHAR) ELSE CAST(${n} AS VARCHAR) END`;
}

/**
 * Excel's serial day number (a DOUBLE) of a date's or datetime's ISO text, at its wall clock (the
 * offset dropped): days since 1899-12-30 and the fraction of the day; null where a sheet cannot
 * show it (before 1900, after 9999, or no date). Excel counts a 1900-02-29 that never was, so days
 * before 1900-03-01 are one less (as Excel and its readers expect).
 */
export function excelSerialSql(text: string, from: 'date' | 'datetime'): string {
  const wallClock = from === 'date' ? text : `regexp_replace(${text}, '([+-][0-9][0-9]:?[0-9][0-9]|Z)$', '')`;
  const timestamp = `TRY_CAST(${wallClock} AS TIMESTAMP)`;
  const days = `(epoch_us(${timestamp}) / 86400000000 + 25569)`;
  return `CASE WHEN ${timestamp} >= TIMESTAMP '1900-03-01' AND year(${timestamp}) <= 9999 THEN ${days} WHEN ${timestamp} >= TIMESTAMP '1900-01-01' AND ${timestamp} < TIMESTAMP '1900-03-01' THEN ${days} - 1 END`;
}
