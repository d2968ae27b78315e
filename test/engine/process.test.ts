// The `duckportal` command's process: what Node and DuckDB read once, at start, is set by the
// command itself (bin/duckportal.cjs), whoever launches it.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SAMPLE_PORTAL } from '../helpers/sample-portal.js';

const CLI = path.resolve('bin/duckportal.cjs');

describe('the duckportal process', () => {
  it('starts Node with a 4 MiB young generation and sizes the thread pool itself', async () => {
    const env = { ...process.env };
    delete env.UV_THREADPOOL_SIZE;
    const child = spawn(CLI, ['serve', '--portal', SAMPLE_PORTAL, '--port', '0'], {
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      let output = '';
      for await (const chunk of child.stdout) {
        output += String(chunk);
        if (output.includes('datasets on http://')) break;
      }
      const argv = (await readFile(`/proc/${child.pid}/cmdline`, 'utf8')).split('\0');
      expect(argv[0]).to.match(/node$/);
      expect(argv).to.include('--max-semi-space-size=4');
      // Without UV_THREADPOOL_SIZE in its environment the server would refuse to start.
      expect(output).to.match(/datasets on http:\/\//);
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    }
  });
});
