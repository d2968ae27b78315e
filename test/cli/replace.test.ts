// Publishing a new version of a dataset through the real CLI: --replace, the metadata it keeps,
// and a server answering in a loop all through the switches.
import { expect } from 'chai';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { cleanup, fixture, readDatasetFile, tempDir, treeDigest } from '../ingest/helpers.js';
import { runCli, startServe } from './run-cli.js';

const REFUSED =
  'duckportal: towns: the portal has this dataset already (--replace publishes a new version of it)\n';

/** Version k of the towns: k + 2 rows, each saying k; odd versions have one more column. */
function version(k: number): string {
  const header = k % 2 === 1 ? 'name,version,extra' : 'name,version';
  const rows = Array.from({ length: k + 2 }, (_, i) => (k % 2 === 1 ? `t${i},${k},x${i}` : `t${i},${k}`));
  return `${header}\n${rows.join('\n')}\n`;
}

describe('ingest --replace', () => {
  after(cleanup);

  it('refuses an existing dataset without --replace and leaves it as it was, exit 1', async () => {
    const dir = await tempDir();
    const portal = path.join(dir, 'portal');
    const first = await fixture(dir, 'v0.csv', version(0));
    expect((await runCli(['ingest', first, '--portal', portal, '--id', 'towns', '-q'])).code).to.equal(0);
    const before = await treeDigest(portal);
    const second = await fixture(dir, 'v1.csv', version(1));
    expect(await runCli(['ingest', second, '--portal', portal, '--id', 'towns', '-q'])).to.deep.equal({
      code: 1,
      stdout: '',
      stderr: REFUSED,
    });
    expect(await treeDigest(portal)).to.deep.equal(before);
    const replaced = await runCli(['ingest', second, '--portal', portal, '--id', 'towns', '--replace', '-q']);
    expect(replaced).to.include({ code: 0, stderr: '' });
    expect((await readDatasetFile(portal, 'towns')).computed.records_count).to.equal(3);
  });

  it('keeps what was edited by hand in dataset.json unless a flag gives it again', async () => {
    const dir = await tempDir();
    const portal = path.join(dir, 'portal');
    const file = await fixture(dir, 'v1.csv', version(1));
    const flags = [
      '--title',
      'Towns',
      '--keyword',
      'a',
      '--keyword',
      'b',
      '--facet',
      'name',
      '--license',
      'CC-BY',
    ];
    expect(
      (await runCli(['ingest', file, '--portal', portal, '--id', 'towns', ...flags, '-q'])).code,
    ).to.equal(0);
    const datasetJson = path.join(portal, 'datasets', 'towns', 'dataset.json');
    const edited = JSON.parse(await readFile(datasetJson, 'utf8'));
    Object.assign(edited.metas.default, { description: 'By hand', publisher: 'Hand', keyword: ['hand'] });
    edited.fields[1].label = 'Version by hand';
    edited.fields[2].annotations.facet = [];
    await writeFile(datasetJson, JSON.stringify(edited));
    const again = [
      '--replace',
      '--title',
      'Towns 2',
      '--theme',
      'Geo',
      '--theme',
      'Maps',
      '--language',
      'fr',
    ];
    expect(
      (await runCli(['ingest', file, '--portal', portal, '--id', 'towns', ...again, '-q'])).code,
    ).to.equal(0);
    const kept = await readDatasetFile(portal, 'towns');
    expect(kept.metas.default).to.deep.include({
      title: 'Towns 2',
      description: 'By hand',
      publisher: 'Hand',
      keyword: ['hand'],
      theme: ['Geo', 'Maps'],
      language: 'fr',
      license: 'CC-BY',
    });
    expect(kept.dataset_uid).to.equal(edited.dataset_uid);
    expect(kept.visibility).to.equal('public');
    expect(kept.fields[1]!.label).to.equal('Version by hand');
    const facets = (f: { annotations: Record<string, unknown> }): boolean => 'facet' in f.annotations;
    expect(kept.fields.filter(facets).map((f) => f.name)).to.deep.equal(['name', 'extra']);
    const third = [
      '--replace',
      '--facet',
      'version',
      '--keyword',
      'x',
      '--description',
      'New',
      '--visibility',
      'restricted',
    ];
    expect(
      (await runCli(['ingest', file, '--portal', portal, '--id', 'towns', ...third, '-q'])).code,
    ).to.equal(0);
    const given = await readDatasetFile(portal, 'towns');
    expect(given.metas.default).to.deep.include({ title: 'Towns 2', description: 'New', keyword: ['x'] });
    expect(given.fields.filter(facets).map((f) => f.name)).to.deep.equal(['version']);
    expect(given.visibility).to.equal('restricted');
    const bad = await runCli(['ingest', file, '--portal', portal, '--id', 'towns', '--visibility', 'secret']);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.include("'--visibility <public|restricted>' argument 'secret' is invalid");
  });

  it('switches versions so that a server reading all along never sees a half-written one', async () => {
    const dir = await tempDir();
    const portal = path.join(dir, 'portal');
    const ingest = async (k: number, replace: string[]): Promise<void> => {
      const file = await fixture(dir, `v${k}.csv`, version(k));
      const ran = await runCli(['ingest', file, '--portal', portal, '--id', 'towns', ...replace, '-q']);
      expect(ran, ran.stderr).to.include({ code: 0 });
    };
    await ingest(0, []);
    const served = await startServe(['--portal', portal, '--port', '0']);
    const records = `${served.base}/api/explore/v2.1/catalog/datasets/towns/records?limit=100`;
    const seen = new Set<number>();
    const wrong: string[] = [];
    let answers = 0;
    let reading = true;
    // Each answer must be one whole version: k + 2 rows, all of version k, with its own fields.
    const loop = (async () => {
      while (reading) {
        const response = await fetch(records);
        const text = await response.text();
        answers += 1;
        if (response.status !== 200) {
          wrong.push(`${response.status} ${text}`);
          continue;
        }
        const rows = (JSON.parse(text) as { results: Record<string, unknown>[] }).results;
        const k = Number(rows[0]?.version);
        const whole =
          rows.length === k + 2 &&
          rows.every((r) => Number(r.version) === k && 'extra' in r === (k % 2 === 1));
        if (!whole) wrong.push(text);
        seen.add(k);
      }
    })();
    try {
      for (const k of [1, 2, 3]) {
        await ingest(k, ['--replace']);
        served.signal('SIGHUP');
        while (!seen.has(k) && wrong.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      reading = false;
      await loop;
      expect(await served.stop()).to.equal(0);
    }
    expect(wrong).to.deep.equal([]);
    expect([...seen].sort()).to.include.members([0, 3]);
    expect(answers).to.be.greaterThan(3);
    expect(served.output().stdout).to.not.include('"level":50');
  });
});
