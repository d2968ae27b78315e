// Portal users: `duckportal users add|list|remove` as an operator runs it (the password on
// standard input), stored only as a salted scrypt hash in a file only its owner reads.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { scrypt } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { KeyStore } from '../../src/auth/keys.js';
import {
  isAdmin,
  USERS_FILE,
  UserStore,
  type PasswordDeriver,
  type ScryptCost,
} from '../../src/auth/users.js';
import { ensurePortalFile } from '../../src/ingest/portal-file.js';

const CLI = path.resolve('bin/duckportal.cjs');

/** Runs the real command with `stdin` as its standard input. */
function duckportal(args: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(CLI, args, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin!.end(stdin);
  });
}

describe('portal users', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-users-'));
    await ensurePortalFile(dir);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('adds a user with the password read from stdin, stored only as a scrypt hash (mode 0600)', async () => {
    const added = await duckportal(
      ['users', 'add', 'alice', '--group', 'press', '--group', 'staff', '--portal', dir],
      'correct horse battery\nignored second line\n',
    );
    expect(added.code, added.stderr).to.equal(0);
    const file = path.join(dir, USERS_FILE);
    expect((await stat(file)).mode & 0o777).to.equal(0o600);
    const text = await readFile(file, 'utf8');
    expect(text).to.not.include('correct horse');
    expect(text).to.not.include('ignored');
    const [entry] = JSON.parse(text).users;
    expect(entry).to.deep.include({ name: 'alice', groups: ['press', 'staff'] });
    expect(entry.password).to.include({ algorithm: 'scrypt', N: 32768, r: 8, p: 1 });
    expect(Buffer.from(entry.password.salt, 'base64url')).to.have.length(16);
    const users = new UserStore(dir);
    expect(await users.verify('alice', 'correct horse battery')).to.deep.equal({
      name: 'alice',
      groups: ['press', 'staff'],
    });
    expect(await users.verify('alice', 'correct horse battery ')).to.equal(null);
    expect(await users.verify('alice', 'ignored second line')).to.equal(null);
    expect(await users.verify('bob', 'correct horse battery')).to.equal(null);
  });

  it('takes a password ending in CRLF or without a line end, and salts each hash apart', async () => {
    expect((await duckportal(['users', 'add', 'bob', '--portal', dir], 'same password\r\n')).code).to.equal(
      0,
    );
    expect((await duckportal(['users', 'add', 'carol', '--portal', dir], 'same password')).code).to.equal(0);
    const [bob, carol] = new UserStore(dir).list();
    expect(bob!.password.salt).to.not.equal(carol!.password.salt);
    expect(bob!.password.hash).to.not.equal(carol!.password.hash);
    expect(await new UserStore(dir).verify('bob', 'same password')).to.not.equal(null);
    expect(await new UserStore(dir).verify('carol', 'same password')).to.not.equal(null);
  });

  it('refuses a short or empty password, a taken name and an invalid name, storing nothing', async () => {
    for (const [name, password, message] of [
      ['dave', 'short\n', 'at least 8 characters'],
      ['dave', '', 'at least 8 characters'],
      ['../dave', 'long enough password\n', 'invalid user name'],
    ] as const) {
      const refused = await duckportal(['users', 'add', name, '--portal', dir], password);
      expect(refused.code).to.equal(1);
      expect(refused.stderr).to.include(message);
    }
    expect(new UserStore(dir).list()).to.deep.equal([]);
    await new UserStore(dir).add('dave', 'first password');
    const again = await duckportal(['users', 'add', 'dave', '--portal', dir], 'second password\n');
    expect(again.stderr).to.include('user dave exists already');
    expect(await new UserStore(dir).verify('dave', 'first password')).to.not.equal(null);
  });

  it('makes an administrator with --admin: the group admin, once', async () => {
    const added = await duckportal(
      ['users', 'add', 'ada', '--admin', '--group', 'staff', '--portal', dir],
      'ada password\n',
    );
    expect(added.stdout).to.include('added ada (staff,admin)');
    const again = await duckportal(
      ['users', 'add', 'bea', '--admin', '--group', 'admin', '--portal', dir],
      'bea password\n',
    );
    expect(again.stdout).to.include('added bea (admin)');
    expect(new UserStore(dir).list().map((u) => [u.name, isAdmin(u)])).to.deep.equal([
      ['ada', true],
      ['bea', true],
    ]);
  });

  it('does the same scrypt work for a wrong password, an unknown user and the right password', async () => {
    await new UserStore(dir).add('gina', 'gina password');
    const calls: { salt: number; cost: ScryptCost }[] = [];
    const counting: PasswordDeriver = (password, salt, cost) => {
      calls.push({ salt: salt.length, cost });
      return new Promise((resolve) =>
        scrypt(password, salt, 32, { ...cost, maxmem: 64 << 20 }, (_, key) => resolve(key)),
      );
    };
    const users = new UserStore(dir, counting);
    const answers = [
      await users.verify('gina', 'gina password'),
      await users.verify('gina', 'wrong password'),
      await users.verify('nobody', 'gina password'),
      await users.verify('', ''),
    ];
    expect(answers.map((user) => user?.name ?? null)).to.deep.equal(['gina', null, null, null]);
    expect(calls).to.deep.equal(Array(4).fill({ salt: 16, cost: { N: 32768, r: 8, p: 1 } }));
  });

  it('lists users, and removes one with its API keys', async () => {
    const users = new UserStore(dir);
    await users.add('erin', 'erin password', ['staff']);
    await users.add('frank', 'frank password');
    const keys = new KeyStore(dir);
    const erinKey = keys.create('erin', ['staff']).key;
    const frankKey = keys.create('frank').key;
    const listed = await duckportal(['users', 'list', '--portal', dir]);
    expect(
      listed.stdout
        .trim()
        .split('\n')
        .map((line) => line.split('\t').slice(0, 2)),
    ).to.deep.equal([
      ['erin', 'staff'],
      ['frank', '-'],
    ]);
    const removed = await duckportal(['users', 'remove', 'erin', '--portal', dir]);
    expect(removed.stdout).to.include('revoked 1 API key');
    expect(users.find('erin')).to.equal(null);
    expect(await users.verify('erin', 'erin password')).to.equal(null);
    expect(keys.verify(erinKey)).to.equal(null);
    expect(keys.verify(frankKey)?.user).to.equal('frank');
    expect((await duckportal(['users', 'remove', 'erin', '--portal', dir])).stderr).to.include(
      'no user erin',
    );
  });
});
