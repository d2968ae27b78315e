// The real `serve` process on signals and with broken datasets: a dataset that fails to load is
// skipped at start-up and on SIGHUP (keeping the version it served before, as does one caught
// between the renames of an ingest's swap), SIGTERM drains the requests in flight (a slow export
// included) and exits 0, and the drain timeout cuts the rest.
import { expect } from 'chai';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { addFixtureDataset, buildFixturePortal } from '../helpers/fixture-portal.js';
import { SAMPLE_PORTAL } from '../helpers/sample-portal.js';
import { slowGet } from '../helpers/downloads.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { freePort } from '../helpers/ports.js';

const V21 = '/api/explore/v2.1';
const NOT_PARQUET = 'this is not a Parquet file, it has no magic bytes';

/** Replaces a file the way sync tools and ingest do: a new file renamed over the old one. */
async function replaceFile(file: string, content: string): Promise<void> {
  await writeFile(`${file}.new`, content);
  await rename(`${file}.new`, file);
}

async function totalCount(base: string, id: string): Promise<number | string> {
  const response = await fetch(`${base}${V21}/catalog/datasets/${id}/records?limit=0`);
  const body = (await response.json()) as { total_count?: number; error_code?: string };
  return body.total_count ?? `${response.status} ${body.error_code}`;
}

async function datasetIds(base: string): Promise<string[]> {
  const response = await fetch(`${base}${V21}/catalog/datasets?select=dataset_id&limit=100`);
  return ((await response.json()) as { results: { dataset_id: string }[] }).results.map((r) => r.dataset_id);
}

describe('serve: broken datasets', () => {
  let dir: string;
  let serve: ServeProcess | undefined;
  beforeEach(async () => {
    dir = await buildFixturePortal();
  });
  afterEach(async () => {
    await serve?.kill();
    serve = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('starts with a corrupt data.parquet and serves the other datasets', async () => {
    await replaceFile(path.join(dir, 'datasets', 'words', 'data.parquet'), NOT_PARQUET);
    serve = await startServeProcess(dir);
    expect(await datasetIds(serve.base)).to.deep.equal(['towns']);
    expect(await totalCount(serve.base, 'towns')).to.equal(3);
    expect(await totalCount(serve.base, 'words')).to.equal('404 NotFoundResource');
    expect(serve.stdout()).to.match(/dataset words: .*No magic bytes found.*\(not served\)/);
  });

  it('on SIGHUP, a dataset whose new files do not load keeps its previous version; the rest reloads', async () => {
    serve = await startServeProcess(dir);
    expect(await datasetIds(serve.base)).to.deep.equal(['towns', 'words']);
    const datasets = path.join(dir, 'datasets');
    await replaceFile(path.join(datasets, 'words', 'data.parquet'), NOT_PARQUET);
    await replaceFile(path.join(datasets, 'towns', 'dataset.json'), '{ not json');
    await addFixtureDataset(dir, 'extra', `SELECT 'e' || i AS _recordid, i AS n FROM range(7) r(i)`, [
      { name: 'n', label: 'N', type: 'int', description: null, annotations: {} },
    ]);
    await mkdir(path.join(datasets, 'nodata'));
    await writeFile(
      path.join(datasets, 'nodata', 'dataset.json'),
      await readFile(path.join(datasets, 'extra', 'dataset.json')),
    );
    const before = serve.stdout().length;
    serve.child.kill('SIGHUP');
    await serve.waitFor('reloaded: ', before);
    expect(serve.child.exitCode).to.equal(null);
    expect(await datasetIds(serve.base)).to.deep.equal(['extra', 'towns', 'words']);
    // Both broken ones answer from the files loaded before: towns its metadata, words its data too.
    expect(await totalCount(serve.base, 'words')).to.equal(5);
    expect(await totalCount(serve.base, 'towns')).to.equal(3);
    expect(await totalCount(serve.base, 'extra')).to.equal(7);
    expect(await totalCount(serve.base, 'nodata')).to.equal('404 NotFoundResource');
    const log = serve.stdout().slice(before);
    expect(log).to.match(
      /dataset words: .*No magic bytes found.*\(the version loaded before is still served\)/,
    );
    expect(log).to.match(/towns[/\\]dataset.json: not valid JSON/);
    expect(log).to.match(/dataset towns: .*\(the version loaded before is still served\)/);
    expect(log).to.match(/nodata[/\\]data.parquet: missing/);
    expect(serve.stderr()).to.equal('');

    // Fixed, it loads again on the next SIGHUP.
    await addFixtureDataset(
      dir,
      'words',
      `SELECT 'w' || i AS _recordid, 'word ' || i AS word FROM range(9) r(i)`,
      [{ name: 'word', label: 'Word', type: 'text', description: null, annotations: {} }],
    );
    const again = serve.stdout().length;
    serve.child.kill('SIGHUP');
    await serve.waitFor('reloaded: ', again);
    expect(await totalCount(serve.base, 'words')).to.equal(9);
  });

  it("on SIGHUP between the two renames of an ingest's swap, keeps the version served; a removed dataset goes", async () => {
    serve = await startServeProcess(dir);
    const datasets = path.join(dir, 'datasets');
    // What ingest --replace leaves for an instant (src/ingest/staging.ts): the old version renamed
    // aside, the new one not yet in place.
    const aside = path.join(datasets, '.words.old-0123456789ab');
    await rename(path.join(datasets, 'words'), aside);
    await rm(path.join(datasets, 'towns'), { recursive: true });
    const before = serve.stdout().length;
    serve.child.kill('SIGHUP');
    await serve.waitFor('reloaded: ', before);
    expect(await datasetIds(serve.base)).to.deep.equal(['words']);
    expect(await totalCount(serve.base, 'words')).to.equal(5);
    expect(await totalCount(serve.base, 'towns')).to.equal('404 NotFoundResource');
    expect(serve.stdout().slice(before)).to.match(
      /words: being replaced \(renamed aside as \.words\.old-0123456789ab\)/,
    );

    // The swap done, the next SIGHUP serves the new version.
    await addFixtureDataset(
      dir,
      'words',
      `SELECT 'w' || i AS _recordid, 'word ' || i AS word FROM range(9) r(i)`,
      [{ name: 'word', label: 'Word', type: 'text', description: null, annotations: {} }],
    );
    await rm(aside, { recursive: true });
    const again = serve.stdout().length;
    serve.child.kill('SIGHUP');
    await serve.waitFor('reloaded: ', again);
    expect(await totalCount(serve.base, 'words')).to.equal(9);
  });
});

describe('serve: SIGTERM drains', () => {
  const EXPORT = `${V21}/catalog/datasets/flights/exports/csv?limit=300000`;
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    await serve?.kill();
    serve = undefined;
  });

  it('lets a slow export finish, answers /readyz 503 meanwhile, refuses new connections and exits 0', async () => {
    const metricsPort = await freePort();
    serve = await startServeProcess(SAMPLE_PORTAL, [
      '--metrics-port',
      String(metricsPort),
      '--drain-timeout',
      '120',
    ]);
    const readyz = `http://127.0.0.1:${metricsPort}/readyz`;
    expect((await fetch(readyz)).status).to.equal(200);
    const download = await slowGet(serve.base + EXPORT);
    expect(download.response.statusCode).to.equal(200);
    serve.child.kill('SIGTERM');
    await serve.waitFor('draining');
    expect((await fetch(readyz)).status).to.equal(503);
    const refused = await fetch(`${serve.base}/livez`).then(
      () => 'answered',
      (error: Error) => (error.cause as NodeJS.ErrnoException).code,
    );
    expect(refused).to.equal('ECONNREFUSED');
    expect(serve.child.exitCode).to.equal(null);
    const bytes = (await download.read()).length;
    expect(await serve.exited).to.equal(0);
    // Every row arrived: the export answered alone is as long.
    const whole = await startServeProcess(SAMPLE_PORTAL);
    try {
      expect((await (await fetch(whole.base + EXPORT)).arrayBuffer()).byteLength).to.equal(bytes);
    } finally {
      await whole.kill();
    }
    expect(serve.stdout()).to.include('drained: exiting');
  });

  it('cuts what is still in flight once the drain timeout passes, and exits 0', async () => {
    serve = await startServeProcess(SAMPLE_PORTAL, ['--drain-timeout', '1']);
    const download = await slowGet(`${serve.base}${V21}/catalog/datasets/flights/exports/csv`);
    serve.child.kill('SIGTERM');
    expect(await serve.exited).to.equal(0);
    const outcome = await download.read().then(
      (body) => `complete: ${body.length}`,
      (error: Error) => error.message,
    );
    expect(outcome).to.match(/^cut after \d+ bytes$/);
    expect(serve.stdout()).to.include('drain timeout: cutting the requests still in flight after 1 s');
  });
});
