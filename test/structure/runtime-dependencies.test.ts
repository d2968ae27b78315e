// Every package the server's code loads at run time is a runtime dependency: the npm package is
// installed without its dev dependencies, so a module of src/ importing a dev dependency fails only
// when installed (topojson-client did, in ingest). Type-only imports vanish at compile time and
// are not counted; web/ is bundled by esbuild at build time and ships no imports.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
  dependencies: Record<string, string>;
};

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or null when relative or built in. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return builtinModules.includes(name) ? null : name;
}

/** True when an import declaration loads nothing at run time (`import type`, or only `type` names). */
function typeOnly(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && !!named && ts.isNamedImports(named) && named.elements.every((e) => e.isTypeOnly);
}

/** The modules a file loads at run time: value imports, re-exports and dynamic imports. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && !typeOnly(node)) {
      found.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
      found.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteral(argument)) found.push(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('runtime dependencies', () => {
  it('hold every package that src/ loads at run time', () => {
    const missing: string[] = [];
    const files = readdirSync('src', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    for (const file of files) {
      const full = path.join('src', file);
      for (const name of runtimeImports(full).map(packageOf)) {
        if (name && !(name in manifest.dependencies)) missing.push(`${full}: ${name}`);
      }
    }
    expect(missing).to.deep.equal([]);
  });

  it('are read from the imports, type-only ones apart', () => {
    const imports = runtimeImports('src/ingest/topojson-source.ts').map(packageOf);
    expect(imports).to.include('topojson-client');
    expect(packageOf('@duckdb/node-api/lib')).to.equal('@duckdb/node-api');
    expect(packageOf('node:fs')).to.equal(null);
    expect(packageOf('fs')).to.equal(null);
  });
});
