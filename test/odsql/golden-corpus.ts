// The held-in ODSQL corpus: the golden pairs of test/odsql/golden/*.sql, read by the golden test
// (exact DuckDB SQL) and by the ClickHouse equivalence test (same answers from both engines).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Output, QueryParams } from '../../src/odsql/index.js';

/** The fixture files live beside the TypeScript sources, not in dist/. */
export const GOLDEN_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../test/odsql/golden',
);

const PARAMETERS = [
  'select',
  'where',
  'group_by',
  'order_by',
  'timezone',
  'lang',
  'output',
  'limit',
  'offset',
];
const PARAMETER_LINE = new RegExp(`^(${PARAMETERS.join('|')}): ?(.*)$`);

/** One pair: comment lines, parameter lines, and the expected output (SQL ending with `;`, or `ERROR: ...`). */
export interface Entry {
  readonly comments: readonly string[];
  readonly parameters: readonly [string, string][];
  readonly expected: string;
}

export function parseEntries(text: string): Entry[] {
  return text
    .split(/\n\s*\n/)
    .map((block) => block.split('\n').filter((line) => line.trim() !== ''))
    .filter((lines) => lines.length > 0)
    .map((lines) => {
      const comments = lines.filter((l) => l.startsWith('#'));
      const rest = lines.filter((l) => !l.startsWith('#'));
      const parameters = rest.flatMap((l): [string, string][] => {
        const match = PARAMETER_LINE.exec(l);
        return match ? [[match[1]!, match[2]!]] : [];
      });
      const expected = rest.filter((l) => !PARAMETER_LINE.test(l)).join(' ');
      return { comments, parameters, expected };
    });
}

export function paramsOf(entry: Entry): { params: QueryParams; output: Output } {
  const params: QueryParams = {};
  let output: Output = 'json';
  const where: string[] = [];
  for (const [name, value] of entry.parameters) {
    if (name === 'select') params.select = value;
    if (name === 'where') where.push(value);
    if (name === 'group_by') params.groupBy = value;
    if (name === 'order_by') params.orderBy = value;
    if (name === 'timezone') params.timezone = value;
    if (name === 'lang') params.lang = value as QueryParams['lang'];
    if (name === 'limit') params.limit = Number(value);
    if (name === 'offset') params.offset = Number(value);
    if (name === 'output') output = value as Output;
  }
  return { params: { ...params, where }, output };
}

/** Every entry of every golden file, with its file's name. */
export function readCorpus(): { file: string; entry: Entry }[] {
  return readdirSync(GOLDEN_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .flatMap((file) =>
      parseEntries(readFileSync(path.join(GOLDEN_DIR, file), 'utf8')).map((entry) => ({ file, entry })),
    );
}
