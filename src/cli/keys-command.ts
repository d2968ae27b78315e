// `duckportal keys create|list|revoke`: the operator's side of API keys.
import { KeyStore } from '../auth/keys.js';
import type { KeyCreateFlags, PortalFlags } from './accounts.js';

type Out = (line: string) => void;
const stdout: Out = (line) => process.stdout.write(`${line}\n`);

/** `keys create --user NAME [--group G]... [--label TEXT]`: prints the new key, once. */
export function create(flags: KeyCreateFlags, out: Out = stdout): Promise<void> {
  const { key, entry } = new KeyStore(flags.portal).create(flags.user, flags.group, {
    label: flags.label ?? null,
  });
  out(key);
  out(`# key ${entry.id} for ${entry.user}: shown once, stored only as a hash`);
  return Promise.resolve();
}

/** `keys list`: one line per key, tab-separated (a label has no tab: it is one line without control characters). */
export function list(flags: PortalFlags, out: Out = stdout): Promise<void> {
  for (const k of new KeyStore(flags.portal).list()) {
    out(
      `${k.id}\t${k.user}\t${k.groups.join(',') || '-'}\t${k.label ?? '-'}\t${k.created}\t${k.revoked ? `revoked ${k.revoked}` : 'active'}`,
    );
  }
  return Promise.resolve();
}

/** `keys revoke KEY_ID`. */
export function revoke(flags: PortalFlags, keyId: string, out: Out = stdout): Promise<void> {
  if (!new KeyStore(flags.portal).revoke(keyId)) throw new Error(`no key ${keyId}`);
  out(`revoked ${keyId}`);
  return Promise.resolve();
}
