// A portal's secret (`<portal>/secret.key`), the keys derived from it, and the rule that two
// portals of one server never share it. A folder copied with `cp -a` (or hard-linked) carries its
// secret along: what the secret signs for one portal must not be taken by the other, so the keys
// of what a client holds and sends back (session cookies, CSRF tokens, entity tags) are derived
// with the portal's domain as well.
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The portal's secret, created on first start; keep it to keep record ids and sessions. */
export const SECRET_FILE = 'secret.key';

/**
 * Reads the portal's secret, creating it (readable by its owner only) when there is none. The new
 * file is written aside and linked in place whole, so a replica starting at the same moment
 * reads either no file or the whole secret, never an empty one.
 */
export function portalSecret(portalDir: string): Buffer {
  const file = path.join(portalDir, SECRET_FILE);
  if (!existsSync(file)) createSecret(file);
  const secret = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
  if (secret.length < 32) throw new Error(`${file}: the secret must hold 32 bytes (base64url)`);
  return secret;
}

function createSecret(file: string): void {
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  writeFileSync(draft, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(draft);
  }
}

/**
 * The secrets of the portals one server serves, in order; refuses two that share one (the same
 * file, or a copy of its bytes), naming both folders: each portal needs a secret of its own.
 */
export function distinctSecrets(portalDirs: readonly string[]): Buffer[] {
  const secrets = portalDirs.map(portalSecret);
  const files = portalDirs.map((dir) => statSync(path.join(dir, SECRET_FILE)));
  portalDirs.forEach((dir, i) => {
    for (let j = 0; j < i; j++) {
      const sameFile = files[i]!.ino === files[j]!.ino && files[i]!.dev === files[j]!.dev;
      if (!sameFile && !secrets[i]!.equals(secrets[j]!)) continue;
      const how = sameFile ? 'the same file' : 'the same bytes';
      throw new Error(
        `portals ${portalDirs[j]} and ${dir} share one ${SECRET_FILE} (${how}), so one would take the other's sessions: remove ${path.join(dir, SECRET_FILE)} (a new one is made at start)`,
      );
    }
  });
  return secrets;
}

/** The key of `purpose` for the portal answering `domain`: another portal's is another key, same secret or not. */
export function portalKey(secret: Buffer, domain: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`duckportal ${purpose}\0${domain.toLowerCase()}`).digest();
}
