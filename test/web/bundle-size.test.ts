// The JavaScript a browser loads for the catalog and the table pages stays small: under 150 KB
// gzipped, measured on the bundle `make build` wrote (each entry's script and every chunk it
// imports, from the manifest).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { entryFiles, WEB_DIST } from '../../src/web/manifest.js';

const BUDGET = 150 * 1024;

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
});
