// portal.json as ingest leaves it: created with defaults when missing, otherwise kept as the operator wrote it.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { portalFileSchema, type PortalFile } from '../catalog/schema.js';
import { describeZodError } from '../catalog/portal.js';

/** The portal title used when ingest creates portal.json. */
export const DEFAULT_PORTAL_TITLE = 'duckportal';

async function readPortalFile(file: string): Promise<PortalFile | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = portalFileSchema.safeParse(json);
  if (!parsed.success) throw new Error(`${file}: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

/**
 * Makes sure `<portal>/portal.json` exists and is valid; `changes` (a title, say) are written
 * over the current settings. Returns the settings now on disk.
 */
export async function ensurePortalFile(
  portal: string,
  changes: Partial<PortalFile> = {},
): Promise<PortalFile> {
  const file = path.join(portal, 'portal.json');
  const current = await readPortalFile(file);
  const wanted = portalFileSchema.parse({ title: DEFAULT_PORTAL_TITLE, ...current, ...changes });
  if (current && JSON.stringify(current) === JSON.stringify(wanted)) return current;
  await mkdir(portal, { recursive: true });
  await writeFile(file, `${JSON.stringify(wanted, null, 2)}\n`);
  return wanted;
}
