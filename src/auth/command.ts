// `duckportal keys create|list|revoke --portal DIR`: the operator's side of API keys.
import { parseArgs } from 'node:util';
import { KeyStore } from './keys.js';

const USAGE =
  'usage: duckportal keys create --user NAME [--group G]... [--portal DIR]\n' +
  '       duckportal keys list [--portal DIR]\n' +
  '       duckportal keys revoke KEY_ID [--portal DIR]';

/** Runs one keys sub-command, writing to `out` (stdout by default). */
export async function main(
  args: string[],
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      portal: { type: 'string', default: 'data/portal' },
      user: { type: 'string' },
      group: { type: 'string', multiple: true },
    },
  });
  const store = new KeyStore(values.portal);
  const [action, target] = positionals;
  if (action === 'create' && values.user) {
    const { key, entry } = store.create(values.user, values.group ?? []);
    out(key);
    out(`# key ${entry.id} for ${entry.user}: shown once, stored only as a hash`);
  } else if (action === 'list') {
    for (const k of store.list()) {
      out(
        `${k.id}\t${k.user}\t${k.groups.join(',') || '-'}\t${k.created}\t${k.revoked ? `revoked ${k.revoked}` : 'active'}`,
      );
    }
  } else if (action === 'revoke' && target) {
    if (!store.revoke(target)) throw new Error(`no key ${target}`);
    out(`revoked ${target}`);
  } else {
    throw new Error(USAGE);
  }
  await Promise.resolve();
}
