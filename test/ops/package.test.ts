// The npm package: `npm pack` of this checkout, installed with --omit=dev in an empty project (from
// npm's cache when it has the dependencies), runs: --help, --version, ingest a CSV, serve it, answer.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServeProcess } from '../helpers/serve-process.js';

const run = promisify(execFile);

describe('the npm package', function () {
  this.timeout(300_000);
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'duckportal-package-'));
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('installs without its dev dependencies and runs: help, version, ingest, serve', async () => {
    const { stdout: packed } = await run('npm', ['pack', '--json', '--pack-destination', work]);
    // The JSON follows what the prepack build printed.
    const [tarball] = JSON.parse(packed.slice(packed.search(/^\[/m))) as {
      filename: string;
      files: { path: string }[];
    }[];
    const shipped = tarball!.files.map((f) => f.path);
    expect(shipped).to.include.members(['bin/duckportal.cjs', 'dist/src/cli.js', 'dist/web/manifest.json']);
    expect(shipped.filter((f) => /^(src|test|bench|dist\/test|dist\/bench)\//.test(f))).to.deep.equal([]);

    const app = path.join(work, 'app');
    await mkdir(app);
    await writeFile(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
    const install = ['install', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'];
    await run('npm', [...install, path.join(work, tarball!.filename)], { cwd: app });
    const installed = path.join(app, 'node_modules');
    const manifest = JSON.parse(await readFile('package.json', 'utf8')) as {
      version: string;
      devDependencies: Record<string, string>;
    };
    // The build and test tools, and the front-end libraries bundled at build time, stay out.
    for (const dev of [
      'typescript',
      'mocha',
      'eslint',
      'esbuild',
      'jison',
      'puppeteer-core',
      'vega',
      'leaflet',
    ]) {
      expect(manifest.devDependencies).to.have.property(dev);
      expect(await readFile(path.join(installed, dev, 'package.json')).catch(() => null), dev).to.equal(null);
    }

    const npx = (...args: string[]) => run('npx', ['--no-install', 'duckportal', ...args], { cwd: app });
    expect((await npx('--help')).stdout).to.match(/serve .*\n[\s\S]*ingest/);
    expect((await npx('--version')).stdout.trim()).to.equal(manifest.version);
    await writeFile(path.join(app, 'trees.csv'), 'name,height\noak,20\nbirch,15\nfir,30\n');
    await npx('ingest', 'trees.csv', '--portal', 'portal', '--id', 'trees', '--quiet');

    const serve = await startServeProcess(
      path.join(app, 'portal'),
      [],
      path.join(installed, '.bin', 'duckportal'),
    );
    try {
      const response = await fetch(
        `${serve.base}/api/explore/v2.1/catalog/datasets/trees/records?order_by=height`,
      );
      const body = (await response.json()) as { total_count: number; results: { name: string }[] };
      expect(body.total_count).to.equal(3);
      expect(body.results.map((r) => r.name)).to.deep.equal(['birch', 'oak', 'fir']);
    } finally {
      await serve.kill();
    }
  });
});
