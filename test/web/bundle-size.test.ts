// The JavaScript a browser loads for the catalog and the table pages stays small: under 150 KB
// gzipped, measured on the bundle `make build` wrote (each entry's script and every chunk it
// imports, from the manifest); the map and chart libraries load only on their own tabs.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { entryFiles, WEB_DIST } from '../../src/web/manifest.js';

const BUDGET = 150 * 1024;

/** The text of the scripts an entry loads. */
function scriptsText(entry: string): string {
  const files = entryFiles(entry);
  return [files.script, ...files.imports]
    .map((file) => readFileSync(path.join(WEB_DIST, file), 'utf8'))
    .join('\n');
}

/** Gzipped bytes of the scripts an entry loads. */
function gzippedScripts(entry: string): number {
  const files = entryFiles(entry);
  return [files.script, ...files.imports]
    .map((file) => gzipSync(readFileSync(path.join(WEB_DIST, file)), { level: 9 }).length)
    .reduce((a, b) => a + b, 0);
}

describe('web: bundle size', () => {
  for (const entry of ['catalog', 'table']) {
    it(`loads under 150 KB of gzipped JavaScript on the ${entry} page`, () => {
      const size = gzippedScripts(entry);
      expect(size).to.be.greaterThan(1024);
      expect(size, `${entry}: ${size} bytes`).to.be.below(BUDGET);
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
