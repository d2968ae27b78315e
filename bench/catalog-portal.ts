// The catalog section's portals: 1,000, 10,000 and 100,000 copies of the sample's seattle-weather
// (test/helpers/catalog-copies.ts: distinct ids, titles, keywords, themes and publishers, the data
// files hard-linked), each built once in data/bench/catalog-<N> and kept (not committed).
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writeCopies } from '../test/helpers/catalog-copies.js';

/** The portal of `size` copies. */
export const catalogPortalDir = (size: number): string => path.resolve(`data/bench/catalog-${size}`);

/** Builds what is missing of the portal of `size` copies from the sample portal; returns its path. */
export async function buildCatalogPortal(
  samplePortal: string,
  size: number,
  log: (line: string) => void,
): Promise<string> {
  const dir = catalogPortalDir(size);
  const done = path.join(dir, '.built');
  if (existsSync(done)) return dir;
  log(`bench: writing ${size} copies of seattle-weather in ${dir}`);
  await writeCopies(dir, path.resolve(samplePortal, 'datasets', 'seattle-weather'), size);
  await writeFile(done, '');
  return dir;
}
