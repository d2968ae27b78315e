// Golden pairs: ODSQL clauses -> the exact DuckDB SQL (or error) in readable files under test/odsql/golden/.
// Re-bless after an intended change: npx tsc -p tsconfig.json && BLESS=1 npx mocha --no-config dist/test/odsql/golden.test.js
import { expect } from 'chai';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compileQuery, QueryLangError } from '../../src/odsql/index.js';
import { SOURCE } from './fixture.js';
import { GOLDEN_DIR, paramsOf, parseEntries, type Entry } from './golden-corpus.js';

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
