// Bundles the web pages' client code with esbuild: one entry point per page kind or dataset tab
// (so a heavy library loads only on its tab), shared code split into chunks, content-hashed names,
// dist/web/manifest.json telling the server which files each entry needs, each script and
// stylesheet precompressed beside it (`.gz`, `.br`) for src/web/assets.ts to send as it is, and
// the site's icon (web/favicon.mjs).
// Run by `make build`; `node web/build.mjs`.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import * as esbuild from 'esbuild';
import { faviconIco } from './favicon.mjs';

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
// The site's icon, served at /favicon.ico (src/web/assets.ts).
await writeFile(path.join(outdir, 'favicon.ico'), faviconIco());

/**
 * Each script and stylesheet's gzip (level 9) and brotli (quality 11) forms beside it: made once
 * here at the strongest settings, which would cost too much per request (brotli 11 takes 5.6 s on
 * the console's 1.59 MB script), and sent by the server as they are.
 */
const PRECOMPRESSED = /\.(js|css)$/;
const gzipFile = promisify(gzip);
const brotliFile = promisify(brotliCompress);
await Promise.all(
  Object.keys(result.metafile.outputs)
    .filter((file) => PRECOMPRESSED.test(file))
    .map(async (file) => {
      const bytes = await readFile(path.resolve(root, file));
      const brotli = {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      };
      await writeFile(path.resolve(root, `${file}.gz`), await gzipFile(bytes, { level: 9 }));
      await writeFile(path.resolve(root, `${file}.br`), await brotliFile(bytes, { params: brotli }));
    }),
);
