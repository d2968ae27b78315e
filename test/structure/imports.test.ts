// DuckDB's client stays behind the engine interface: outside src/engine/duckdb/, only ingest (which
// builds a dataset's Parquet with DuckDB) and the search index built at ingest import it. Imports
// are read with TypeScript's own pre-processor, which sees type-only and dynamic imports too.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';

/** Modules of DuckDB's client. */
const DUCKDB = /^@duckdb\//;

/** Where importing DuckDB's client is allowed (folders end with a slash). */
const ALLOWED = ['src/engine/duckdb/', 'src/ingest/', 'src/search/build-index.ts'];

/** Every TypeScript file under `folder`, as a path relative to the checkout. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(folder, file).split(path.sep).join('/'))
    .sort();
}

/** The modules a file imports: static, type-only, re-exported and dynamic. */
function importsOf(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((i) => i.fileName);
}

describe('imports of DuckDB', () => {
  const importers = sourceFiles('src').filter((file) => importsOf(file).some((m) => DUCKDB.test(m)));

  it('come only from the DuckDB engine, ingest and the search index build', () => {
    const outside = importers.filter((file) => !ALLOWED.some((allowed) => file.startsWith(allowed)));
    expect(outside).to.deep.equal([]);
  });

  it('are seen where they are (the engine, ingest, the index build)', () => {
    expect(importers).to.include.members([
      'src/engine/duckdb/engine.ts',
      'src/engine/duckdb/arrow-arrays.ts',
      'src/ingest/ingest.ts',
      'src/search/build-index.ts',
    ]);
  });
});
