// Validators of answers: the version of each dataset's files and of the catalog, and strong entity
// tags over a version, the canonical request and the caller's audience. Nothing here is random
// to the process: every replica over the same portal folder derives the same tags.
import { createHash, createHmac } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { Dataset, Portal } from '../catalog/portal.js';
import { portalKey } from '../auth/portal-secret.js';

/** What an answer derived from: a digest of the files it read, and when their data was last processed. */
export interface DataVersion {
  readonly tag: string;
  readonly modified: Date;
}

/** The versions of a loaded portal: one per dataset, and the catalog's over all of them and portal.json. */
export interface PortalVersions {
  readonly datasets: ReadonlyMap<string, DataVersion>;
  readonly catalog: DataVersion;
}

const digest = (value: unknown): string =>
  createHash('sha256').update(JSON.stringify(value)).digest('base64url');

/** Size and modification time of a file, or null when it is gone. */
async function fileStamp(file: string): Promise<[number, number] | null> {
  return stat(file).then(
    (s) => [s.size, s.mtimeMs],
    () => null,
  );
}

/**
 * One dataset's version: its dataset.json as loaded, and the size and time of its data, its index
 * and its attachments (names relative to the dataset folder, so a folder mounted elsewhere agrees).
 */
async function datasetVersion(dataset: Dataset): Promise<DataVersion> {
  const files: [string, string | null][] = [
    ['data', dataset.parquetPath],
    ['search', dataset.searchIndexPath],
    ...dataset.attachments.map((a): [string, string] => [`attachments/${a.fileName}`, a.filePath]),
  ];
  const stamps = await Promise.all(
    files.map(async ([name, file]) => [name, file && (await fileStamp(file))]),
  );
  const { data_processed, metadata_processed } = dataset.file.computed;
  const modified = new Date(Math.max(Date.parse(data_processed), Date.parse(metadata_processed)));
  return { tag: digest([dataset.file, stamps]), modified };
}

/** The versions of every dataset of `portal` and of its catalog (read once per load or reload). */
export async function portalVersions(portal: Portal): Promise<PortalVersions> {
  const datasets = new Map<string, DataVersion>();
  for (const dataset of portal.datasets.values()) datasets.set(dataset.id, await datasetVersion(dataset));
  const times = [...datasets.values()].map((v) => v.modified.getTime());
  const catalog = {
    tag: digest([portal.settings, [...datasets].map(([id, v]) => [id, v.tag])]),
    modified: new Date(Math.max(0, ...times)),
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
