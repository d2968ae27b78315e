// Golden pairs: ODSQL clauses -> the exact DuckDB SQL (or error) in readable files under test/odsql/golden/.
// Re-bless after an intended change: npx tsc -p tsconfig.json && BLESS=1 npx mocha --no-config dist/test/odsql/golden.test.js
import { expect } from 'chai';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileQuery, QueryLangError, type Output, type QueryParams } from '../../src/odsql/index.js';
import { SOURCE } from './fixture.js';

/** The fixture files live beside the TypeScript sources, not in dist/. */
const GOLDEN_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/odsql/golden');

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
interface Entry {
  readonly comments: readonly string[];
  readonly parameters: readonly [string, string][];
  readonly expected: string;
}

function parseEntries(text: string): Entry[] {
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

function paramsOf(entry: Entry): { params: QueryParams; output: Output } {
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

/** The compiled SQL with a line break before each clause keyword, or the error; reading joins lines with spaces. */
function actualOf(entry: Entry): string {
  const { params, output } = paramsOf(entry);
  try {
    const { sql } = compileQuery(SOURCE, params, output);
    return `${sql.replace(/ (FROM|WHERE|GROUP BY|ORDER BY|LIMIT) /g, '\n$1 ')};`;
  } catch (error) {
    if (error instanceof QueryLangError) return `ERROR: ${error.message}`;
    throw error;
  }
}

const formatEntry = (entry: Entry, actual: string): string =>
  [...entry.comments, ...entry.parameters.map(([n, v]) => `${n}: ${v}`), actual].join('\n');

describe('ODSQL golden pairs (test/odsql/golden/*.sql)', () => {
  const files = readdirSync(GOLDEN_DIR).filter((f) => f.endsWith('.sql'));

  it('has fixture files', () => {
    expect(files.length).to.be.greaterThan(0);
  });

  for (const file of files) {
    const filePath = path.join(GOLDEN_DIR, file);
    const entries = parseEntries(readFileSync(filePath, 'utf8'));
    if (process.env.BLESS === '1') {
      const blessed = entries.map((entry) => formatEntry(entry, actualOf(entry)));
      writeFileSync(filePath, `${blessed.join('\n\n')}\n`);
      continue;
    }
    describe(file, () => {
      for (const entry of entries) {
        const title = entry.parameters.map(([n, v]) => `${n}=${v}`).join('&');
        it(title, () => {
          expect(actualOf(entry).split('\n').join(' ')).to.equal(entry.expected);
        });
      }
    });
  }
});
