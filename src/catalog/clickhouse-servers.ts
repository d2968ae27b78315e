// The credentials of the ClickHouse servers a portal's attached datasets live on: clickhouse.json in
// the portal folder, readable by its owner only, beside secret.key and the key and user stores. A
// dataset.json names its server by address alone; nothing else holds a user or a password.
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { clickHouseServersSchema, type ClickHouseServers } from './schema.js';

export const CLICKHOUSE_FILE = 'clickhouse.json';

/** What duckportal signs in to a server with. */
export interface ClickHouseCredentials {
  readonly user: string;
  readonly password: string;
}

/** The credentials of each ClickHouse server by its address; none when the file is absent. */
export function readClickHouseServers(portalDir: string): Promise<Map<string, ClickHouseCredentials>> {
  return readServerCredentials(portalDir, CLICKHOUSE_FILE);
}

/**
 * The credentials of each server by its address, from the portal's file `fileName` (an engine
 * kind's: clickhouse.json is ClickHouse's); none when the file is absent.
 */
export async function readServerCredentials(
  portalDir: string,
  fileName: string,
): Promise<Map<string, ClickHouseCredentials>> {
  const file = path.join(portalDir, fileName);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (text === null) return new Map();
  const parsed = clickHouseServersSchema.safeParse(JSON.parse(text));
  // The file's values are never quoted in a message: a password could be among them.
  if (!parsed.success) throw new Error(`${file}: not a list of servers with their url, user and password`);
  return new Map(parsed.data.servers.map(({ url, user, password }) => [url, { user, password }]));
}

/** Sets the credentials of the server at `url`, keeping the others (written aside, then renamed). */
export async function saveClickHouseServer(
  portalDir: string,
  url: string,
  credentials: ClickHouseCredentials,
): Promise<void> {
  const servers = await readClickHouseServers(portalDir);
  servers.set(url, credentials);
  const file: ClickHouseServers = {
    servers: [...servers].map(([address, { user, password }]) => ({ url: address, user, password })),
  };
  const target = path.join(portalDir, CLICKHOUSE_FILE);
  const aside = `${target}.${process.pid}.${randomBytes(6).toString('hex')}`;
  await writeFile(aside, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  await rename(aside, target);
}
