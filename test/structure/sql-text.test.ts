// SQL is written only where the engine's language is known: the ODSQL compiler (src/odsql/), the
// engines (src/engine/), ingest, the search index built at ingest, and attach's ClickHouse view.
// Everywhere else a query is asked of src/odsql/ in typed options, never composed as text.
// Strings and templates are read with TypeScript's own parser, so comments and prose do not
// count, and a keyword split across a template's substitutions still does.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';

/**
 * Where SQL text is written (folders end with a slash). `duckportal attach` writes the one
 * ClickHouse view it creates over an attached table (DDL run by the operator's command, not a
 * query of a request).
 */
const ALLOWED = [
  'src/odsql/',
  'src/engine/',
  'src/ingest/',
  'src/search/build-index.ts',
  'src/cli/attach-command.ts',
];

/**
 * Files outside ALLOWED that still write SQL: the export writers whose per-value formatting has
 * no cell kind in src/odsql/shape.ts yet (RDF lexical forms and record IRIs, XLSX cell XML). The
 * other writers ask src/odsql/ for shaped rows. A file leaves this list when it no longer writes
 * SQL (the second test fails on a stale entry).
 */
const STILL_WRITING = [
  'src/exports/rdf-formats.ts',
  'src/exports/rdf-terms.ts',
  'src/exports/xlsx-format.ts',
];

/** Words that only SQL text holds, in the upper case every SQL string of the project uses. */
const SQL_WORDS =
  /\b(SELECT|FROM|WHERE|GROUP BY|ORDER BY|GROUPING SETS|CASE WHEN|CAST\(|COPY|CREATE (OR REPLACE )?(TABLE|VIEW)|UNION ALL|NULLS LAST|IS NOT NULL|IS NULL|VARCHAR)\b/;

/** Every TypeScript file under `folder`, as a path relative to the checkout. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(folder, file).split(path.sep).join('/'))
    .sort();
}

/** The text of every string literal and template of a file, a template's parts joined by a space. */
function stringsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const texts: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) texts.push(node.text);
    else if (ts.isTemplateExpression(node)) {
      texts.push([node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' '));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return texts;
}

/** The files outside ALLOWED whose strings hold SQL, each with its first SQL string. */
function sqlWriters(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sourceFiles('src')) {
    if (ALLOWED.some((allowed) => file.startsWith(allowed))) continue;
    const sql = stringsOf(file).find((text) => SQL_WORDS.test(text));
    if (sql !== undefined) found.set(file, sql);
  }
  return found;
}

describe('SQL text', () => {
  it('is written only by the compiler, the engines, ingest and the index build', () => {
    const outside = [...sqlWriters()].filter(([file]) => !STILL_WRITING.includes(file));
    expect(Object.fromEntries(outside)).to.deep.equal({});
  });

  it('is still written by each file of the list of those still writing it', () => {
    expect([...sqlWriters().keys()].filter((file) => STILL_WRITING.includes(file))).to.deep.equal(
      STILL_WRITING,
    );
  });

  it('is seen where it is written (the check reads strings and templates)', () => {
    const found = stringsOf('src/engine/duckdb/engine.ts').filter((text) => SQL_WORDS.test(text));
    expect(found.some((text) => text.includes('CREATE OR REPLACE TABLE'))).to.equal(true);
    expect(
      stringsOf('src/odsql/dialect/duckdb/facet-counts.ts').some((text) => text.includes('GROUPING SETS')),
    ).to.equal(true);
  });
});
