// DuckDB's reader errors -> one line that names the file, the line and the problem (never DuckDB's whole report).
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { InputFormat } from './input-format.js';
import {
  firstJsonError,
  firstNonRecord,
  locateJsonError,
  nonRecordLine,
  readJsonText,
  type JsonSyntaxError,
} from './json-errors.js';

/** Known reader problems: a pattern over DuckDB's message and the sentence we say instead. */
const KNOWN_PROBLEMS: readonly { pattern: RegExp; say: (match: RegExpMatchArray) => string }[] = [
  {
    pattern: /Expected Number of Columns: (\d+) Found: (\d+)/,
    say: (m) => `${m[2]} ${m[2] === '1' ? 'column' : 'columns'} where the header has ${m[1]}`,
  },
  { pattern: /unterminated quote/i, say: () => 'a quoted value is never closed' },
  {
    pattern: /Maximum line size of (\d+) bytes exceeded/,
    say: (m) => `longer than the ${Number(m[1]).toLocaleString('en-US')} bytes a line may hold`,
  },
  { pattern: /Invalid unicode/i, say: () => 'bytes that are not valid UTF-8' },
  { pattern: /expected records, but got non-record JSON/, say: () => 'no JSON objects to read records from' },
  { pattern: /Malformed JSON.*?: ([^.\n]*)/, say: (m) => `invalid JSON (${m[1]!.trim()})` },
  {
    pattern: /too small to be a Parquet file|No magic bytes|not a parquet file/i,
    say: () => 'not a Parquet file',
  },
];

/** True for errors raised by DuckDB, whose messages start with their error class. */
function isDuckDBError(error: unknown): error is Error {
  return error instanceof Error && /^[A-Z][A-Za-z ]* Error: /.test(error.message);
}

/** The first line of a DuckDB message, without its error class. */
function firstLine(message: string): string {
  return (message.split('\n')[0] ?? '').replace(/^[A-Z][A-Za-z ]* Error: /, '').trim();
}

/**
 * The first non-blank line of a JSON lines file that does not parse (or, `records`, that holds no
 * object), with its line number, or null.
 */
async function firstBadJsonLine(file: string, records = false): Promise<JsonSyntaxError | null> {
  let number = 0;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    number++;
    if (line.trim() === '') continue;
    const error = firstJsonError(line);
    if (error) return records ? null : { ...error, line: number };
    const notRecord = records ? nonRecordLine(line, number) : null;
    if (notRecord) return notRecord;
  }
  return null;
}

/** Where a JSON file's first element that is no object is: DuckDB says only "non-record JSON". */
async function locateNonRecord(format: InputFormat, file: string): Promise<JsonSyntaxError | null> {
  if (format === 'jsonl') return firstBadJsonLine(file, true);
  const text = format === 'json' ? await readJsonText(file) : null;
  return text === null ? null : firstNonRecord(text);
}

/** Formats whose reader's "Malformed JSON" is located by scanning the file ourselves. */
const JSON_DOCUMENTS: ReadonlySet<InputFormat> = new Set(['json', 'geojson']);

/**
 * Where the problem is, and what it is when we found it ourselves. DuckDB's CSV line is exact;
 * its JSON positions count within a record, so JSON is located by scanning the file.
 */
async function locate(
  message: string,
  format: InputFormat,
  file: string,
): Promise<{ where: string; problem?: string } | null> {
  const csvLine = /CSV Error on Line: (\d+)/.exec(message);
  if (csvLine) return { where: `line ${csvLine[1]}` };
  if (/non-record JSON/.test(message)) {
    const found = await locateNonRecord(format, file);
    return found && { where: `line ${found.line}, column ${found.column}`, problem: found.problem };
  }
  if (!/Malformed JSON/.test(message)) return null;
  const error =
    format === 'jsonl'
      ? await firstBadJsonLine(file)
      : JSON_DOCUMENTS.has(format)
        ? await locateJsonError(file)
        : null;
  if (!error) return null;
  return { where: `line ${error.line}, column ${error.column}`, problem: `invalid JSON (${error.problem})` };
}

/**
 * An error that says which file could not be read and why: `data.csv: line 3: 4 columns
 * where the header has 3`. Errors that are not DuckDB's pass through unchanged.
 */
export async function describeSourceError(
  error: unknown,
  displayName: string,
  format: InputFormat,
  file: string,
): Promise<Error> {
  if (!isDuckDBError(error)) return error instanceof Error ? error : new Error(String(error));
  const message = error.message;
  const known = KNOWN_PROBLEMS.map((p) => ({ p, match: p.pattern.exec(message) })).find((k) => k.match);
  const place = await locate(message, format, file);
  const problem = place?.problem ?? (known?.match ? known.p.say(known.match) : firstLine(message));
  return new Error(`${displayName}: ${place ? `${place.where}: ` : ''}${problem}`);
}
