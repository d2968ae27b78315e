// Bundles the web pages' client code with esbuild: one entry point per page kind or dataset tab
// (so a heavy library loads only on its tab), shared code split into chunks, content-hashed names,
// and dist/web/manifest.json telling the server which files each entry needs.
// Run by `make build`; `node web/build.mjs`.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.dirname(fileURLToPath(import.meta.url));
const outdir = path.resolve(root, '../dist/web');

/** Entry name -> source. The server names a page by its entry (src/web/layout.ts). */
const ENTRIES = {
  catalog: 'src/pages/catalog.tsx',
  information: 'src/tabs/information.tsx',
  table: 'src/tabs/table.tsx',
  map: 'src/tabs/map.tsx',
  analyze: 'src/tabs/analyze.tsx',
  export: 'src/tabs/export.tsx',
  api: 'src/tabs/api.tsx',
  console: 'src/pages/console.ts',
};
/** The site's stylesheet, linked by every page (script or not). */
const STYLESHEET = 'src/site.css';

await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });
const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: { ...ENTRIES, site: STYLESHEET },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  sourcemap: 'linked',
  entryNames: '[name]-[hash]',
  chunkNames: 'chunk-[hash]',
  assetNames: '[name]-[hash]',
  metafile: true,
  // Images a library's stylesheet points at (leaflet's controls) become hashed files beside it.
  loader: { '.png': 'file', '.svg': 'file' },
  jsx: 'automatic',
  jsxImportSource: 'preact',
  logLevel: 'warning',
});

/** Every chunk `file` loads before it runs (its static imports, theirs, ...), each once. */
function staticImports(file, seen = new Set()) {
  for (const { path: chunk, kind } of result.metafile.outputs[file].imports) {
    if (kind !== 'import-statement' || seen.has(chunk)) continue;
    seen.add(chunk);
    staticImports(chunk, seen);
  }
  return [...seen];
}

/** Entry -> its script, its own stylesheet (a library's) and its chunks, as file names in dist/web. */
const entries = {};
let stylesheet = null;
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  if (!output.entryPoint) continue;
  if (output.entryPoint === STYLESHEET && file.endsWith('.css')) stylesheet = path.basename(file);
  const name = Object.keys(ENTRIES).find((key) => ENTRIES[key] === output.entryPoint);
  if (!name || !file.endsWith('.js')) continue;
  entries[name] = {
    script: path.basename(file),
    styles: output.cssBundle ? [path.basename(output.cssBundle)] : [],
    imports: staticImports(file).map((chunk) => path.basename(chunk)),
  };
}
await writeFile(path.join(outdir, 'manifest.json'), `${JSON.stringify({ stylesheet, entries }, null, 2)}\n`);
