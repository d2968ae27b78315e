// `duckportal users add|list|remove --portal DIR`: the operator's side of the account page's users.
import { parseArgs } from 'node:util';
import { KeyStore } from './keys.js';
import { UserStore } from './users.js';

const USAGE =
  'usage: duckportal users add NAME [--group G]... [--portal DIR]   (the password: one line on standard input)\n' +
  '       duckportal users list [--portal DIR]\n' +
  '       duckportal users remove NAME [--portal DIR]';

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

/** Runs one users sub-command, writing to `out`, reading a new user's password from `input`. */
export async function main(
  args: string[],
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
  input: NodeJS.ReadableStream = process.stdin,
): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      portal: { type: 'string', default: 'data/portal' },
      group: { type: 'string', multiple: true },
    },
  });
  const users = new UserStore(values.portal);
  const [action, name] = positionals;
  if (action === 'add' && name) {
    const entry = await users.add(name, await readLine(input), values.group ?? []);
    out(
      `added ${entry.name} (${entry.groups.join(',') || 'no groups'}): the password is stored only as a scrypt hash`,
    );
  } else if (action === 'list') {
    for (const u of users.list()) out(`${u.name}\t${u.groups.join(',') || '-'}\t${u.created}`);
  } else if (action === 'remove' && name) {
    if (!users.remove(name)) throw new Error(`no user ${name}`);
    const keys = new KeyStore(values.portal);
    const revoked = keys.list().filter((k) => k.user === name && k.revoked === null && keys.revoke(k.id));
    out(`removed ${name}; revoked ${revoked.length} API key(s) of ${name}`);
  } else {
    throw new Error(USAGE);
  }
}
