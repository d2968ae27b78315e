// What the exports need at run time is checked as `serve` starts: without perl (which makes the
// exports' named pipes) it refuses to start with one clear line, not at its first export.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SAMPLE_PORTAL } from '../helpers/sample-portal.js';

describe('serve: what exports need', () => {
  it('refuses to start without perl, saying so', async () => {
    // A PATH that holds node alone.
    const bin = await mkdtemp(path.join(os.tmpdir(), 'duckportal-no-perl-'));
    await symlink(process.execPath, path.join(bin, 'node'));
    try {
      const child = spawn(
        process.execPath,
        [path.resolve('bin/duckportal.cjs'), 'serve', '--portal', SAMPLE_PORTAL, '--port', '0'],
        { env: { ...process.env, PATH: bin }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stdout.on('data', (chunk) => (output += String(chunk)));
      child.stderr.on('data', (chunk) => (output += String(chunk)));
      const [code] = await once(child, 'exit');
      expect(code).to.equal(1);
      expect(output.trim()).to.match(
        /^duckportal: exports make their named pipes with perl, which did not run \(spawn perl ENOENT\): install perl \(Debian: perl-base\)$/,
      );
    } finally {
      await rm(bin, { recursive: true, force: true });
    }
  });
});
