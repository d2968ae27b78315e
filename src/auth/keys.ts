// API keys: created once and shown once, stored only as a salted HMAC in `<portal>/keys.json`,
// checked in constant time, revocable while the server runs (the file is re-read when it changes).
// When each key was last used is kept apart, in `<portal>/keys-used.json`, which only the server
// writes: a write of it can never undo a revocation made meanwhile in keys.json. A key may carry a
// label its owner gives it (what it is for); a file written before labels existed loads as unlabelled.
import { unescape } from 'node:querystring';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readJsonEntries, RereadFile, writeJsonFile } from './reread-file.js';

/** The key file of a portal. */
export const KEYS_FILE = 'keys.json';

/** When each key was last used: `{"<key id>": "<ISO time>"}`. */
export const KEYS_USED_FILE = 'keys-used.json';

/** A key's last use is written at most this often, not on every request. */
const USE_WRITE_MS = 60_000;

/** A key is `dpk_<id>_<secret>`: the id finds the entry, the secret is what is hashed. */
const KEY_SHAPE = /^dpk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

const keyEntry = z.object({
  id: z.string().regex(/^[0-9a-f]{12}$/),
  user: z.string().min(1),
  groups: z.array(z.string()).default([]),
  created: z.string(),
  revoked: z.string().nullable().default(null),
  // Not bounded here: a label too long or odd, written by hand, must not make every key unreadable.
  label: z.string().nullable().default(null),
  salt: z.string(),
  hash: z.string(),
});
const keysFile = z.object({ keys: z.array(keyEntry).default([]) });

export type KeyEntry = z.output<typeof keyEntry>;

/** The longest label a key may be given, in characters. */
export const MAX_KEY_LABEL = 100;

/** Why `label` cannot be a key's label, or null when it can (trimmed; '' is no label). */
export function keyLabelProblem(label: string): string | null {
  if (label.length > MAX_KEY_LABEL)
    return `A key's label is at most ${MAX_KEY_LABEL} characters; this one has ${label.length}.`;
  if (/[\u0000-\u001f\u007f]/.test(label))
    return "A key's label is one line of text, without control characters.";
  return null;
}

/** Who a valid key (or a signed-in session: no key id) belongs to. */
export interface KeyOwner {
  readonly keyId: string | null;
  readonly user: string;
  readonly groups: readonly string[];
}

/** Hashes a key's secret with its salt; injectable so tests can count the hashing work. */
export type KeyHasher = (salt: string, secret: string) => Buffer;

const digest: KeyHasher = (salt, secret) =>
  createHmac('sha256', Buffer.from(salt, 'base64url')).update(secret).digest();

/**
 * What an unknown, revoked or malformed key is compared with: the same HMAC and constant-time
 * compare as a known id, so the answer's timing does not tell which ids exist.
 */
const DUMMY = { salt: randomBytes(16).toString('base64url'), hash: randomBytes(32).toString('base64url') };
const DUMMY_SECRET = 'x'.repeat(43);

function readEntries(file: string): KeyEntry[] {
  return readJsonEntries(file, (json) => keysFile.parse(json).keys);
}

function writeEntries(file: string, keys: readonly KeyEntry[]): void {
  writeJsonFile(file, { keys });
}

const usesFile = z.record(z.string(), z.string());

function readUses(file: string): Map<string, string> {
  try {
    return new Map(Object.entries(usesFile.parse(JSON.parse(readFileSync(file, 'utf8')))));
  } catch {
    // Missing or damaged: last uses are a convenience, never a reason to refuse a key.
    return new Map();
  }
}

/** The keys of one portal directory. */
export class KeyStore {
  private readonly file: string;
  private readonly usedFile: string;
  private readonly stored: RereadFile<KeyEntry>;
  /** When this process last wrote each key's use. */
  private readonly usesWritten = new Map<string, number>();

  constructor(
    portalDir: string,
    private readonly hasher: KeyHasher = digest,
    private readonly now: () => number = Date.now,
  ) {
    this.file = path.join(portalDir, KEYS_FILE);
    this.usedFile = path.join(portalDir, KEYS_USED_FILE);
    this.stored = new RereadFile(this.file, readEntries, (k) => k.id);
  }

  /**
   * Creates a key for `user`, labelled `label` (trimmed; empty or absent: none); the returned key
   * text is the only copy that will ever exist.
   */
  create(
    user: string,
    groups: readonly string[] = [],
    { label = null, now = new Date() }: { label?: string | null; now?: Date } = {},
  ): { key: string; entry: KeyEntry } {
    if (!/^[\w.@-]{1,100}$/.test(user)) throw new Error(`invalid user name: ${JSON.stringify(user)}`);
    const trimmed = label?.trim() ?? '';
    const problem = keyLabelProblem(trimmed);
    if (problem) throw new Error(problem);
    const id = randomBytes(6).toString('hex');
    const secret = randomBytes(32).toString('base64url');
    const salt = randomBytes(16).toString('base64url');
    const entry: KeyEntry = {
      id,
      user,
      groups: [...groups],
      created: now.toISOString(),
      revoked: null,
      label: trimmed === '' ? null : trimmed,
      salt,
      hash: this.hasher(salt, secret).toString('base64url'),
    };
    writeEntries(this.file, [...readEntries(this.file), entry]);
    return { key: `dpk_${id}_${secret}`, entry };
  }

  /** Every key, revoked ones included (no secret is stored, so none is shown). */
  list(): KeyEntry[] {
    return readEntries(this.file);
  }

  /** When each key was last used (to the minute), by key id. */
  lastUses(): ReadonlyMap<string, string> {
    return readUses(this.usedFile);
  }

  /** Revokes a key by id (or by the full key text); false when no such key. */
  revoke(idOrKey: string, now = new Date()): boolean {
    const id = KEY_SHAPE.exec(idOrKey)?.[1] ?? idOrKey;
    const keys = readEntries(this.file);
    const entry = keys.find((k) => k.id === id);
    if (!entry) return false;
    entry.revoked ??= now.toISOString();
    writeEntries(this.file, keys);
    return true;
  }

  /** The owner of a presented key, or null when it is malformed, unknown, revoked or wrong. */
  verify(presented: string): KeyOwner | null {
    const match = KEY_SHAPE.exec(presented);
    const found = match ? this.entries().get(match[1]!) : undefined;
    const usable = found !== undefined && found.revoked === null;
    const { salt, hash } = usable ? found : DUMMY;
    const expected = Buffer.from(hash, 'base64url');
    const actual = this.hasher(salt, match?.[2] ?? DUMMY_SECRET);
    const equal = expected.length === actual.length && timingSafeEqual(expected, actual);
    if (!usable || !equal) return null;
    this.noteUse(found.id);
    return { keyId: found.id, user: found.user, groups: found.groups };
  }

  /** Records a key's use, writing keys-used.json at most once a minute per key. */
  private noteUse(id: string): void {
    const now = this.now();
    if (now - (this.usesWritten.get(id) ?? -Infinity) < USE_WRITE_MS) return;
    this.usesWritten.set(id, now);
    const uses = readUses(this.usedFile);
    uses.set(id, new Date(now).toISOString());
    try {
      writeJsonFile(this.usedFile, Object.fromEntries(uses));
    } catch {
      // A portal folder the server may not write (read-only, full): the key works, its use goes unnoted.
    }
  }

  /** The entries by id, as the file holds them now. */
  private entries(): Map<string, KeyEntry> {
    return this.stored.entries();
  }
}

/** The key a request presents: `Authorization: Apikey <key>` (any case) or `?apikey=`. */
export function presentedKey(authorization: string | undefined, query: unknown): string | null {
  const header = /^apikey\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (header) return header[1]!;
  const raw = (query as Record<string, unknown> | undefined)?.apikey;
  const value: unknown = Array.isArray(raw) ? (raw as unknown[])[raw.length - 1] : raw;
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * A URL or log line with the value of every `apikey` parameter replaced, so keys never reach a
 * log: the name is read as the query parser reads it (`%61pikey` is apikey too), in any case.
 */
export function scrubKeys(text: string): string {
  return text.replace(/([?&])([^=&#\s]*)=([^&#\s]*)/g, (whole, separator: string, name: string) =>
    unescape(name.replaceAll('+', ' ')).toLowerCase() === 'apikey' ? `${separator}${name}=[redacted]` : whole,
  );
}
