// Validators of answers: the version of each dataset's files and of the catalog, and strong entity
// tags over a version, the canonical request and the caller's audience. Nothing here is random
// to the process: every replica over the same portal folder derives the same tags.
import { createHash, createHmac } from 'node:crypto';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import type { Portal } from '../catalog/portal.js';
import { datasetVersion, type DataVersion } from '../catalog/data-version.js';
import { portalKey } from '../auth/portal-secret.js';

/** The versions of a loaded portal: one per dataset, and the catalog's over all of them and portal.json. */
export interface PortalVersions {
  readonly datasets: ReadonlyMap<string, DataVersion>;
  readonly catalog: DataVersion;
}

export type { DataVersion };

/** Datasets whose part of the catalog's digest is hashed between two turns of the event loop. */
const DIGEST_SLICE = 10_000;

/**
 * The versions of every dataset of `portal` and of its catalog (once per load or reload): those
 * the catalog's index keeps, else (a portal made by hand) from each dataset's files. With
 * `previous` (the versions of the load before), only the datasets the reload changed are read.
 */
export async function portalVersions(portal: Portal, previous?: PortalVersions): Promise<PortalVersions> {
  const { load } = portal;
  let datasets = new Map<string, DataVersion>();
  if (load) {
    const fromLine = (id: string): DataVersion => {
      const [tag, modified] = load.lines.get(id)!.facts.version;
      return { tag, modified: new Date(modified) };
    };
    const { added, replaced, removed } = load.changes;
    if (previous && added.length === 0) {
      // The previous versions in the catalog's order (a native copy), the changed ones in their place.
      datasets = new Map(previous.datasets);
      for (const id of removed) datasets.delete(id);
      for (const id of replaced) datasets.set(id, fromLine(id));
    } else for (const id of load.lines.keys()) datasets.set(id, fromLine(id));
  } else {
    for (const dataset of portal.datasets.values()) datasets.set(dataset.id, await datasetVersion(dataset));
  }
  return { datasets, catalog: await catalogVersion(portal, datasets) };
}

/**
 * The catalog's version: the digest of portal.json and every dataset's tag (the SHA-256 of the
 * JSON of [settings, [[id, tag]...]], hashed in slices between turns of the event loop), and the
 * latest of their times.
 */
async function catalogVersion(
  portal: Portal,
  datasets: ReadonlyMap<string, DataVersion>,
): Promise<DataVersion> {
  const hash = createHash('sha256').update(`[${JSON.stringify(portal.settings)},[`);
  // A loop, not Math.max(...times): a spread of 100,000 arguments overflows the stack.
  let latest = 0;
  let i = 0;
  for (const [id, version] of datasets) {
    hash.update(`${i === 0 ? '' : ','}[${JSON.stringify(id)},${JSON.stringify(version.tag)}]`);
    latest = Math.max(latest, version.modified.getTime());
    if (++i % DIGEST_SLICE === 0) await yieldToEvents();
  }
  return { tag: hash.update(']]').digest('base64url'), modified: new Date(latest) };
}

/** The key of a portal's entity tags, from its secret and domain: tags cannot be forged nor carried to another portal. */
export function entityTagKey(secret: Buffer, domain: string): Buffer {
  return portalKey(secret, domain, 'entity tags');
}

/** A strong entity tag over `parts` (data version, canonical request, audience). */
export function entityTag(key: Buffer, parts: readonly unknown[]): string {
  return `"${createHmac('sha256', key).update(JSON.stringify(parts)).digest('base64url').slice(0, 32)}"`;
}

/** The tag of the same answer sent with a content coding: a different representation, a different strong tag. */
export function encodedTag(tag: string, encoding: string): string {
  return `${tag.slice(0, -1)}-${encoding}"`;
}

const ENTITY_TAG = /^(?:W\/)?("[^"]*")$/;

/**
 * The entity tag of an If-None-Match header that names `tag` or one of its encoded forms (weak
 * comparison, as RFC 9110 13.1.2 asks), or null. A header that is not a list of entity tags is
 * garbage, a miss; so is `*`: whether the answer exists is known only by running it.
 */
export function matchIfNoneMatch(
  header: string | undefined,
  tag: string,
  encodings: readonly string[],
): string | null {
  if (!header) return null;
  const held = header
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => ENTITY_TAG.exec(item)?.[1]);
  if (held.some((opaque) => opaque === undefined)) return null;
  const accepted = new Set([tag, ...encodings.map((e) => encodedTag(tag, e))]);
  return held.find((opaque) => accepted.has(opaque!)) ?? null;
}
