// SQL is written only where the engine's language is known: the ODSQL compiler (src/odsql/), the
// engines (src/engine/), ingest, the search index built at ingest, and attach's ClickHouse view.
// Everywhere else a query is asked of src/odsql/ in typed options, never composed as text. Inside
// src/odsql/, the function registry (functions/) keeps meaning and each dialect writes its SQL.
// Strings and templates are read with TypeScript's own parser, so comments and prose do not
// count, and a keyword split across a template's substitutions still does.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';

/**
 * Where SQL text is written (folders end with a slash). `duckportal attach` writes the statements
 * of attaching a ClickHouse table (its DESCRIBE, the view adding the hidden columns, its count):
 * run once by the operator's command, never a query of a request. They stay in the command rather
 * than moving into src/engine/clickhouse/ because the command is where the fact lives once: the
 * view's columns (a record id hashed from the row, an ordinal) are what attaching a table means,
 * and the engine reads the view as it reads any table. The catalog's full-text index
 * (src/search/catalog-search.ts) is built in the layout of a dataset's, beside build-index.ts.
 */
const ALLOWED = [
  'src/odsql/',
  'src/engine/',
  'src/ingest/',
  'src/search/build-index.ts',
  'src/search/catalog-search.ts',
  'src/cli/attach-command.ts',
];

/** Words that only SQL text holds, in the upper case every SQL string of the project uses. */
const SQL_WORDS =
  /\b(SELECT|FROM|WHERE|GROUP BY|ORDER BY|GROUPING SETS|CASE WHEN|CAST\(|COPY|CREATE (OR REPLACE )?(TABLE|VIEW)|UNION ALL|NULLS LAST|IS NOT NULL|IS NULL|VARCHAR)\b/;

/**
 * DuckDB's functions that only its spelling of ODSQL calls: the function registry
 * (src/odsql/functions/) says what a function means, and writes none of them.
 */
const DUCKDB_CALLS =
  /\b(strftime|date_trunc|time_bucket|epoch_us|make_timestamp|to_microseconds|list_transform|json_extract|regexp_replace|starts_with|levenshtein)\(/;

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
  it('is written only by the compiler, the engines, ingest, the index build and attach', () => {
    expect(Object.fromEntries(sqlWriters())).to.deep.equal({});
  });

  it('is not written by the function registry: its entries keep meaning, each dialect spells them', () => {
    const writers = sourceFiles('src/odsql/functions').filter((file) =>
      stringsOf(file).some((text) => SQL_WORDS.test(text) || DUCKDB_CALLS.test(text)),
    );
    expect(writers).to.deep.equal([]);
  });

  it('is seen where it is written (the check reads strings and templates)', () => {
    const found = stringsOf('src/engine/duckdb/views.ts').filter((text) => SQL_WORDS.test(text));
    expect(found.some((text) => text.includes('CREATE OR REPLACE TABLE'))).to.equal(true);
    expect(
      stringsOf('src/odsql/dialect/duckdb/facet-counts.ts').some((text) => text.includes('GROUPING SETS')),
    ).to.equal(true);
  });
});
