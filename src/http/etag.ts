// Validators of answers: the version of each dataset's files and of the catalog, and strong entity
// tags over a version, the canonical request and the caller's audience. Nothing here is random
// to the process: every replica over the same portal folder derives the same tags.
import { createHmac } from 'node:crypto';
import type { Portal } from '../catalog/portal.js';
import { datasetVersion, digest, type DataVersion } from '../catalog/data-version.js';
import { portalKey } from '../auth/portal-secret.js';

/** The versions of a loaded portal: one per dataset, and the catalog's over all of them and portal.json. */
export interface PortalVersions {
  readonly datasets: ReadonlyMap<string, DataVersion>;
  readonly catalog: DataVersion;
}

export type { DataVersion };

/**
 * The versions of every dataset of `portal` and of its catalog (once per load or reload): those
 * the catalog's index keeps, else (a portal made by hand) from each dataset's files.
 */
export async function portalVersions(portal: Portal): Promise<PortalVersions> {
  const datasets = new Map<string, DataVersion>();
  if (portal.load) {
    for (const [id, line] of portal.load.lines) {
      const [tag, modified] = line.facts.version;
      datasets.set(id, { tag, modified: new Date(modified) });
    }
  } else {
    for (const dataset of portal.datasets.values()) datasets.set(dataset.id, await datasetVersion(dataset));
  }
  // A loop, not Math.max(...times): a spread of 100,000 arguments overflows the stack.
  let latest = 0;
  for (const version of datasets.values()) latest = Math.max(latest, version.modified.getTime());
  const catalog = {
    tag: digest([portal.settings, [...datasets].map(([id, v]) => [id, v.tag])]),
    modified: new Date(latest),
  };
  return { datasets, catalog };
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
