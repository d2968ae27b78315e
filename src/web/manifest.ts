// The bundle's manifest (dist/web/manifest.json, written by web/build.mjs): which hashed files each
// page entry needs. Read once, on the first page served.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** Where `make build` puts the client bundle (dist/web, beside dist/src). */
export const WEB_DIST = fileURLToPath(new URL('../../web/', import.meta.url));

/** The files of one entry, as names inside WEB_DIST. */
export interface EntryFiles {
  readonly script: string;
  readonly styles: readonly string[];
  /** Chunks the script imports statically: preloaded so they load in parallel with it. */
  readonly imports: readonly string[];
}

export interface Manifest {
  /** The site's stylesheet, linked by every page. */
  readonly stylesheet: string;
  readonly entries: Readonly<Record<string, EntryFiles>>;
}

let manifest: Manifest | null = null;

/** The manifest, read on first use; throws with the command to run when the bundle is missing. */
export function webManifest(): Manifest {
  if (manifest) return manifest;
  const file = path.join(WEB_DIST, 'manifest.json');
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch (error) {
    throw new Error(`the web bundle is missing: run \`make build\` (${file}: ${String(error)})`);
  }
  return manifest;
}

/** The files of `entry`; an entry the manifest does not name is a programming error. */
export function entryFiles(entry: string): EntryFiles {
  const files = Object.hasOwn(webManifest().entries, entry) ? webManifest().entries[entry] : undefined;
  if (!files) throw new Error(`web/build.mjs has no entry named ${entry}`);
  return files;
}
