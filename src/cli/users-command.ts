// `duckportal users add|list|remove`: the operator's side of the account page's users.
import { KeyStore } from '../auth/keys.js';
import { ADMIN_GROUP, UserStore } from '../auth/users.js';
import type { PortalFlags, UserAddFlags } from './accounts.js';

/** The first line of `input` (without its line ending), read to the first newline or the end. */
export async function readLine(input: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) {
    // Decoded only once whole, so a character split across two chunks stays whole.
    chunks.push(Buffer.from(chunk));
    if (chunks.at(-1)!.includes(0x0a)) break;
  }
  return Buffer.concat(chunks).toString('utf8').split('\n', 1)[0]!.replace(/\r$/, '');
}

type Out = (line: string) => void;
const stdout: Out = (line) => process.stdout.write(`${line}\n`);

/** `users add NAME [--group G]... [--admin]`, the password read from the first line of `input`. */
export async function add(
  flags: UserAddFlags,
  name: string,
  out: Out = stdout,
  input: NodeJS.ReadableStream = process.stdin,
): Promise<void> {
  const groups =
    flags.admin && !flags.group.includes(ADMIN_GROUP) ? [...flags.group, ADMIN_GROUP] : flags.group;
  const entry = await new UserStore(flags.portal).add(name, await readLine(input), groups);
  out(
    `added ${entry.name} (${entry.groups.join(',') || 'no groups'}): the password is stored only as a scrypt hash`,
  );
}

/** `users list`: one line per user, tab-separated. */
export function list(flags: PortalFlags, out: Out = stdout): Promise<void> {
  for (const u of new UserStore(flags.portal).list())
    out(`${u.name}\t${u.groups.join(',') || '-'}\t${u.created}`);
  return Promise.resolve();
}

/** `users remove NAME`, revoking the user's API keys. */
export function remove(flags: PortalFlags, name: string, out: Out = stdout): Promise<void> {
  if (!new UserStore(flags.portal).remove(name)) throw new Error(`no user ${name}`);
  const keys = new KeyStore(flags.portal);
  const revoked = keys.list().filter((k) => k.user === name && k.revoked === null && keys.revoke(k.id));
  out(`removed ${name}; revoked ${revoked.length} API key(s) of ${name}`);
  return Promise.resolve();
}
