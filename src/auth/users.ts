// Portal users who sign in on the account page: created by the operator, stored in
// `<portal>/users.json` with only a salted scrypt hash of each password (its cost parameters kept
// beside it, so they can be raised later without breaking old hashes).
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { readJsonEntries, RereadFile, writeJsonFile } from './reread-file.js';

/** The user file of a portal. */
export const USERS_FILE = 'users.json';

/** Shortest password accepted. */
export const MIN_PASSWORD_LENGTH = 8;

/**
 * The group of a portal's administrators: they read the monitoring dataset and publish datasets
 * from the account page (`users add NAME --admin`).
 */
export const ADMIN_GROUP = 'admin';

/** Whether `user` is one of the portal's administrators. */
export function isAdmin(user: PortalUser): boolean {
  return user.groups.includes(ADMIN_GROUP);
}

/** User names: the same as key owners (src/auth/keys.ts). */
const USER_NAME = /^[\w.@-]{1,100}$/;

/**
 * scrypt at N=2^15, r=8: 32 MiB and a tenth of a second or more of a core per hash
 * (docs/access-control.md), so a stolen users.json costs an attacker that much per guess; stored
 * per user, so new users can get a higher cost.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

const passwordHash = z.object({
  algorithm: z.literal('scrypt'),
  N: z
    .number()
    .int()
    .min(2)
    .max(2 ** 20),
  r: z.number().int().min(1),
  p: z.number().int().min(1),
  salt: z.string(),
  hash: z.string(),
});
const userEntry = z.object({
  name: z.string().regex(USER_NAME),
  groups: z.array(z.string()).default([]),
  created: z.string(),
  password: passwordHash,
});
const usersFile = z.object({ users: z.array(userEntry).default([]) });

export type UserEntry = z.output<typeof userEntry>;
type PasswordHash = z.output<typeof passwordHash>;

/** A signed-in user as the access rules see one. */
export interface PortalUser {
  readonly name: string;
  readonly groups: readonly string[];
}

/** scrypt's cost parameters. */
export type ScryptCost = Pick<PasswordHash, 'N' | 'r' | 'p'>;

/** Derives a password's hash; injectable so tests can count the work a sign-in does. */
export type PasswordDeriver = (password: string, salt: Buffer, cost: ScryptCost) => Promise<Buffer>;

const derive: PasswordDeriver = (password, salt, cost) => {
  const { N, r, p } = cost;
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r * p };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
};

async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, COST);
  return { algorithm: 'scrypt', ...COST, salt: salt.toString('base64url'), hash: hash.toString('base64url') };
}

/** What an unknown user's password is checked against: the same scrypt work as a real user's. */
const DUMMY: PasswordHash = {
  algorithm: 'scrypt',
  ...COST,
  salt: randomBytes(16).toString('base64url'),
  hash: randomBytes(KEY_LENGTH).toString('base64url'),
};

function readUsers(file: string): UserEntry[] {
  return readJsonEntries(file, (json) => usersFile.parse(json).users);
}

function writeUsers(file: string, users: readonly UserEntry[]): void {
  writeJsonFile(file, { users });
}

/** The users of one portal directory. */
export class UserStore {
  private readonly file: string;
  private readonly stored: RereadFile<UserEntry>;

  constructor(
    portalDir: string,
    private readonly deriver: PasswordDeriver = derive,
  ) {
    this.file = path.join(portalDir, USERS_FILE);
    this.stored = new RereadFile(this.file, readUsers, (u) => u.name);
  }

  /** Adds a user; refuses a taken or invalid name and a password under MIN_PASSWORD_LENGTH. */
  async add(
    name: string,
    password: string,
    groups: readonly string[] = [],
    now = new Date(),
  ): Promise<UserEntry> {
    if (!USER_NAME.test(name)) throw new Error(`invalid user name: ${JSON.stringify(name)}`);
    if ([...password].length < MIN_PASSWORD_LENGTH) {
      throw new Error(`the password must have at least ${MIN_PASSWORD_LENGTH} characters`);
    }
    const entry: UserEntry = {
      name,
      groups: [...groups],
      created: now.toISOString(),
      password: await hashPassword(password),
    };
    const users = readUsers(this.file);
    if (users.some((u) => u.name === name)) throw new Error(`user ${name} exists already`);
    writeUsers(this.file, [...users, entry]);
    return entry;
  }

  /** Every user. */
  list(): UserEntry[] {
    return readUsers(this.file);
  }

  /** Removes a user; false when there is none of that name. */
  remove(name: string): boolean {
    const users = readUsers(this.file);
    const kept = users.filter((u) => u.name !== name);
    if (kept.length === users.length) return false;
    writeUsers(this.file, kept);
    return true;
  }

  /** The user as stored now (re-read when the file changed), or null. */
  find(name: string): PortalUser | null {
    const entry = this.entries().get(name);
    return entry ? { name: entry.name, groups: entry.groups } : null;
  }

  /**
   * The user when the password is theirs, else null: an unknown name costs the same scrypt work
   * as a wrong password, so the answer's timing does not tell which names exist.
   */
  async verify(name: string, password: string): Promise<PortalUser | null> {
    const entry = this.entries().get(name);
    const stored = entry?.password ?? DUMMY;
    const expected = Buffer.from(stored.hash, 'base64url');
    const { N, r, p } = stored;
    const actual = await this.deriver(password, Buffer.from(stored.salt, 'base64url'), { N, r, p });
    const equal = expected.length === actual.length && timingSafeEqual(expected, actual);
    return entry && equal ? { name: entry.name, groups: entry.groups } : null;
  }

  /** The entries by name, as the file holds them now. */
  private entries(): Map<string, UserEntry> {
    return this.stored.entries();
  }
}
