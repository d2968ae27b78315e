// Where a JSON document first breaks the grammar, as a line and a column: DuckDB says only "at
// byte N in record M", counted within a record, which no reader can find in the file.
import { readFile, stat } from 'node:fs/promises';
import { ParseErrorCode, visit } from 'jsonc-parser';

/** Files larger than this are not scanned again (the scan holds the text in memory): no position. */
export const JSON_LOCATE_MAX_BYTES = 256 * 1024 * 1024;

/** The first syntax error of a JSON text: 1-based line and column (UTF-16 units), and what was wrong. */
export interface JsonSyntaxError {
  readonly line: number;
  readonly column: number;
  readonly problem: string;
}

/** jsonc-parser's error codes in words; those it raises only for comments cannot occur (comments are errors). */
const PROBLEMS: Partial<Record<ParseErrorCode, string>> = {
  [ParseErrorCode.InvalidSymbol]: 'unexpected character',
  [ParseErrorCode.InvalidNumberFormat]: 'a malformed number',
  [ParseErrorCode.PropertyNameExpected]: 'a property name in double quotes expected',
  [ParseErrorCode.ValueExpected]: 'a value expected',
  [ParseErrorCode.ColonExpected]: "':' expected",
  [ParseErrorCode.CommaExpected]: "',' expected",
  [ParseErrorCode.CloseBraceExpected]: "'}' expected",
  [ParseErrorCode.CloseBracketExpected]: "']' expected",
  [ParseErrorCode.EndOfFileExpected]: 'text after the end of the document',
  [ParseErrorCode.InvalidCommentToken]: 'a comment, which JSON does not allow',
  [ParseErrorCode.UnexpectedEndOfString]: 'a string never closed on its line',
  [ParseErrorCode.UnexpectedEndOfNumber]: 'a number cut short',
  [ParseErrorCode.InvalidUnicode]: 'an invalid \\u escape',
  [ParseErrorCode.InvalidEscapeCharacter]: 'an invalid escape character',
  [ParseErrorCode.InvalidCharacter]: 'a control character inside a string',
};

/** The first syntax error of `text` (strict JSON: no comments, no trailing commas), or null when it parses. */
export function firstJsonError(text: string): JsonSyntaxError | null {
  let found: JsonSyntaxError | null = null;
  visit(
    text,
    {
      onError: (code, _offset, _length, line, character) => {
        found ??= { line: line + 1, column: character + 1, problem: PROBLEMS[code] ?? 'invalid JSON' };
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  return found;
}

/** A JSON file's text, a byte order mark skipped; null when too large to scan again. */
export async function readJsonText(file: string): Promise<string | null> {
  if ((await stat(file)).size > JSON_LOCATE_MAX_BYTES) return null;
  return (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
}

/** The first syntax error of a JSON file, or null when it parses or is too large. */
export async function locateJsonError(file: string): Promise<JsonSyntaxError | null> {
  const text = await readJsonText(file);
  return text === null ? null : firstJsonError(text);
}

/** A JSON value that is not an object, in words. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? 'a string' : `a ${typeof value}`;
}

/**
 * The first element of a top-level JSON array that is not an object (a record must be one), as
 * its line, column and kind; null when every element is an object or the text is no array.
 */
export function firstNonRecord(text: string): JsonSyntaxError | null {
  let depth = 0;
  let index = 0;
  let found: JsonSyntaxError | null = null;
  const element = (kind: string, line: number, character: number): void => {
    if (depth !== 1 || found) return;
    index++;
    if (kind !== 'an object')
      found = {
        line: line + 1,
        column: character + 1,
        problem: `record ${index} is ${kind}, not a JSON object`,
      };
  };
  visit(text, {
    onObjectBegin: (_o, _l, line, character) => {
      element('an object', line, character);
      depth++;
    },
    onObjectEnd: () => depth--,
    onArrayBegin: (_o, _l, line, character) => {
      element('an array', line, character);
      depth++;
    },
    onArrayEnd: () => depth--,
    onLiteralValue: (value, _o, _l, line, character) => element(kindOf(value), line, character),
  });
  return found;
}

/** The first line of JSON lines whose value is not an object, numbered from 1, or null. */
export function nonRecordLine(line: string, number: number): JsonSyntaxError | null {
  const value: unknown = JSON.parse(line);
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return null;
  return { line: number, column: 1, problem: `${kindOf(value)}, not a JSON object` };
}
