// The JavaScript a browser loads for the catalog and the table pages stays small: under 150 KB
// gzipped, measured on what the server sends (each entry's script and every chunk it imports, from
// the manifest, in the gzip and brotli forms `make build` wrote beside them); the map and chart
// libraries load only on their own tabs.
import { expect } from 'chai';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { entryFiles, WEB_DIST } from '../../src/web/manifest.js';

const BUDGET = 150 * 1024;

/** The text of the scripts an entry loads. */
function scriptsText(entry: string): string {
  const files = entryFiles(entry);
  return [files.script, ...files.imports]
    .map((file) => readFileSync(path.join(WEB_DIST, file), 'utf8'))
    .join('\n');
}

/** The files an entry's scripts are sent as with `suffix` (.gz, .br), each checked to be the script. */
function sentScripts(entry: string, suffix: string): number {
  const files = entryFiles(entry);
  const decode = suffix === '.gz' ? gunzipSync : brotliDecompressSync;
  let size = 0;
  for (const file of [files.script, ...files.imports]) {
    const script = path.join(WEB_DIST, file);
    expect(decode(readFileSync(script + suffix)).equals(readFileSync(script)), file + suffix).to.equal(true);
    size += statSync(script + suffix).size;
  }
  return size;
}

describe('web: bundle size', () => {
  for (const entry of ['catalog', 'table']) {
    it(`loads under 150 KB of gzipped JavaScript on the ${entry} page`, () => {
      const gzipped = sentScripts(entry, '.gz');
      expect(gzipped).to.be.greaterThan(1024);
      expect(gzipped, `${entry}: ${gzipped} bytes`).to.be.below(BUDGET);
      // A browser that takes brotli gets less still.
      expect(sentScripts(entry, '.br')).to.be.below(gzipped);
    });
  }

  // Each library's own text: leaflet's attribution link, vega-embed's class names.
  const LIBRARIES = { map: 'leafletjs.com', analyze: 'vega-embed' } as const;
  for (const [tab, mark] of Object.entries(LIBRARIES)) {
    it(`loads the ${tab} tab's library on that tab only`, () => {
      expect(scriptsText(tab)).to.include(mark);
      for (const entry of ['catalog', 'information', 'table', 'export', 'api', 'map', 'analyze']) {
        if (entry !== tab) expect(scriptsText(entry), entry).to.not.include(mark);
      }
    });
  }
});
