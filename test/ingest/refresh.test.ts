// Sources that refresh: `ingest URL --refresh 6h` records the source, and `duckportal refresh`
// against a local HTTP server the test drives: a 304 and the same bytes make no new version, new
// bytes make one (served after the SIGHUP the command sends, the one replaced kept, the oldest
// pruned), and a failing source (HTTP 500, a refused connection) leaves the version served as it
// was and is counted in a real server's /metrics.
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli, type Ran } from '../cli/run-cli.js';
import { freePort } from '../helpers/ports.js';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.js';
import { cleanup, query, readDatasetFile, tempDir, useHttpServer } from './helpers.js';
import type { DatasetSource } from '../../src/catalog/dataset-source.js';
import type { DatasetFile } from '../../src/catalog/schema.js';
import { parseRefresh, recordSource, refreshPeriodMs } from '../../src/ingest/source-record.js';
import { quoteString } from '../../src/sql/quoting.js';

const LAST_MODIFIED = 'Tue, 24 Nov 2026 10:00:00 GMT';
const csvOf = (n: number): string =>
  `name,n\n${Array.from({ length: n }, (_, i) => `town ${i},${i}`).join('\n')}\n`;

describe('refresh: sources downloaded again', () => {
  /** What the source answers, changed by the tests; each request's validators are noted. */
  const source = { body: csvOf(2), etag: '"v1"', status: 200 };
  const asked: { ifNoneMatch?: string; ifModifiedSince?: string }[] = [];
  const http = useHttpServer((request, response) => {
    asked.push({
      ...(request.headers['if-none-match'] ? { ifNoneMatch: request.headers['if-none-match'] } : {}),
      ...(request.headers['if-modified-since']
        ? { ifModifiedSince: request.headers['if-modified-since'] }
        : {}),
    });
    if (source.status !== 200) response.writeHead(source.status).end('down');
    else if (request.headers['if-none-match'] === source.etag) response.writeHead(304).end();
    else response.writeHead(200, { ETag: source.etag, 'Last-Modified': LAST_MODIFIED }).end(source.body);
  });
  let portal: string;
  let serve: ServeProcess;

  before(async () => {
    portal = path.join(await tempDir('duckportal-refresh-'), 'portal');
    for (const id of ['towns', 'gone'])
      expect(
        await runCli([
          'ingest',
          `${http.base}/${id}.csv`,
          '--portal',
          portal,
          '--id',
          id,
          '--refresh',
          '6h',
          '-q',
        ]),
      ).to.include({ code: 0 });
    // gone's server is no more: nothing listens where its source is.
    const goneJson = path.join(portal, 'datasets', 'gone', 'dataset.json');
    const gone = await readDatasetFile(portal, 'gone');
    const closed = `http://127.0.0.1:${await freePort()}/gone.csv`;
    await writeFile(goneJson, JSON.stringify({ ...gone, source: { ...gone.source, url: closed } }));
    serve = await startServeProcess(portal);
  });
  after(async () => {
    await serve?.kill();
    await cleanup();
  });

  /** Runs `refresh` on the portal; when it published a version, returns once the server reloaded. */
  async function refresh(...flags: string[]): Promise<Ran> {
    const before = serve.stdout().length;
    asked.length = 0;
    const ran = await runCli(['refresh', '--portal', portal, ...flags]);
    if (/new version/.test(ran.stdout)) await serve.waitFor('reloaded: ', before);
    return ran;
  }
  const townsDir = (): string => path.join(portal, 'datasets', 'towns');
  const served = async (): Promise<number> => {
    const response = await fetch(`${serve.base}/api/explore/v2.1/catalog/datasets/towns/records?limit=0`);
    return ((await response.json()) as { total_count: number }).total_count;
  };
  const failures = async (): Promise<string | undefined> =>
    /^duckportal_refresh_failures_total\{portal="portal"\} (\d+)$/m.exec(
      await (await fetch(`${serve.base}/metrics`)).text(),
    )?.[1];

  it('ingest URL --refresh records the source, its validators and the digest of its bytes', async () => {
    expect((await readDatasetFile(portal, 'towns')).source).to.deep.equal({
      url: `${http.base}/towns.csv`,
      refresh: '6h',
      etag: '"v1"',
      last_modified: LAST_MODIFIED,
      sha256: createHash('sha256').update(csvOf(2)).digest('hex'),
      format: null,
      sheet: null,
      null_tokens: [],
      header_row: null,
      skip_rows: null,
      header_rows: null,
      geo_point: null,
      sort_by: null,
      auto_facets: true,
      strict: false,
    });
    const local = await runCli([
      'ingest',
      path.join(portal, 'portal.json'),
      '--portal',
      portal,
      '--id',
      'x',
      '--refresh',
      '1d',
    ]);
    expect([local.code, local.stderr]).to.satisfy(
      ([code, stderr]: [number, string]) =>
        code === 1 && stderr.includes('--refresh: ') && stderr.includes('not an http'),
    );
    expect(await failures()).to.equal('0');
  });

  it('a 304 makes no new version, and a source checked is not due again before its period', async () => {
    const [folder, before] = [(await stat(townsDir())).ino, await readDatasetFile(portal, 'towns')];
    const ran = await refresh('--only', 'towns');
    expect(ran).to.include({ code: 0, stdout: 'towns: unchanged (304 Not Modified)\n' });
    expect(asked).to.deep.equal([{ ifNoneMatch: '"v1"', ifModifiedSince: LAST_MODIFIED }]);
    expect((await stat(townsDir())).ino).to.equal(folder);
    expect(await readDatasetFile(portal, 'towns')).to.deep.equal(before);
    expect(await readdir(portal)).to.not.include('versions');
    const again = await refresh('--only', 'towns');
    expect(again.stdout).to.match(/^towns: not due \(next check from \S+\)\n$/);
    expect(asked).to.deep.equal([]);
  });

  it('the same bytes under a new ETag make no new version; the ETag is recorded for the next 304', async () => {
    const before = await readDatasetFile(portal, 'towns');
    source.etag = '"v1-regenerated"';
    const ran = await refresh('--all', '--only', 'towns');
    expect(ran.stdout).to.match(/^towns: unchanged \(the same bytes, SHA-256 [0-9a-f]{12}\)\n$/);
    const after = await readDatasetFile(portal, 'towns');
    expect(after.source?.etag).to.equal('"v1-regenerated"');
    expect(after.computed).to.deep.equal(before.computed);
    expect(await readdir(portal)).to.not.include('versions');
    expect((await refresh('--all', '--only', 'towns')).stdout).to.equal(
      'towns: unchanged (304 Not Modified)\n',
    );
  });

  it('new bytes: a new version served after the SIGHUP, the one replaced kept, the oldest pruned', async () => {
    Object.assign(source, { body: csvOf(3), etag: '"v2"' });
    const ran = await refresh('--all', '--only', 'towns');
    expect(ran.code).to.equal(0);
    expect(ran.stdout).to.match(
      /^towns: new version, 3 records; the one replaced kept in versions\/towns\/\d{8}T\d{6}Z\n$/,
    );
    expect(ran.stderr).to.match(/reloading: SIGHUP sent to process \d+/);
    expect(await served()).to.equal(3);
    const versions = path.join(portal, 'versions', 'towns');
    const kept = async () => {
      const names = await readdir(versions);
      const counts = [];
      for (const name of names) {
        const file = quoteString(path.join(versions, name, 'data.parquet'));
        counts.push((await query(`SELECT count(*)::INT AS n FROM read_parquet(${file})`))[0]!.n);
      }
      return counts;
    };
    expect(await kept()).to.deep.equal([2]);
    expect((await readDatasetFile(portal, 'towns')).source).to.include({ etag: '"v2"', refresh: '6h' });
    Object.assign(source, { body: csvOf(4), etag: '"v3"' });
    expect((await refresh('--all', '--only', 'towns', '--keep', '2')).code).to.equal(0);
    expect(await served()).to.equal(4);
    expect(await kept()).to.deep.equal([3]);
  });

  it('a failing source (HTTP 500, a refused connection) keeps the version served and is counted in /metrics', async () => {
    source.status = 500;
    const [folder, before] = [
      (await stat(townsDir())).ino,
      await readFile(path.join(townsDir(), 'dataset.json')),
    ];
    const ran = await refresh('--all');
    expect(ran.code).to.equal(1);
    const lines = ran.stdout.split('\n');
    expect(lines[0]).to.match(
      /^gone: failed, the version served is kept: http:\/\/127\.0\.0\.1:\d+\/gone\.csv: cannot download \(.*ECONNREFUSED.*\)$/,
    );
    expect(lines[1]).to.equal(
      `towns: failed, the version served is kept: ${http.base}/towns.csv: HTTP 500 Internal Server Error`,
    );
    expect(ran.stderr).to.include('2 of 2 sources failed');
    expect((await stat(townsDir())).ino).to.equal(folder);
    expect(await readFile(path.join(townsDir(), 'dataset.json'))).to.deep.equal(before);
    expect(await served()).to.equal(4);
    expect(await failures()).to.equal('2');
    const state = JSON.parse(await readFile(path.join(portal, 'refresh-state.json'), 'utf8'));
    expect(state.datasets.towns).to.include({ last_result: 'failed', failures_total: 1 });
    expect(state.datasets.towns.last_error).to.include('HTTP 500');
    // A failing source is due at each run until a check succeeds (gone's never did); towns's
    // check within its period succeeded, and --all is what asked it again.
    const next = await refresh();
    expect(next.code).to.equal(1);
    expect(next.stdout).to.match(/^gone: failed, .*\ntowns: not due/);
    expect(await failures()).to.equal('3');
    source.status = 200;
    expect((await refresh('--all', '--only', 'towns')).stdout).to.equal(
      'towns: unchanged (304 Not Modified)\n',
    );
    expect(await failures()).to.equal('3');
  });
});

describe('refresh: what dataset.json keeps of a source', () => {
  const base = { dataset_uid: 'u' } as unknown as DatasetFile;
  const facts = {
    url: 'https://example.org/a.csv',
    etag: '"e2"',
    lastModified: null,
    sha256: 'b'.repeat(64),
  };
  const kept: DatasetSource = {
    url: 'https://example.org/a.csv',
    refresh: '1d',
    etag: '"e1"',
    last_modified: null,
    sha256: 'a'.repeat(64),
    format: 'csv',
    sheet: null,
    null_tokens: ['?'],
    header_row: 2,
    skip_rows: null,
    header_rows: null,
    geo_point: null,
    sort_by: [],
    auto_facets: false,
    strict: false,
  };
  const previous = { ...base, source: kept };

  it('records --refresh with a download, drops it with off, keeps it through a local ingest', () => {
    expect(recordSource(base, null, { refresh: '6h', downloaded: facts }).source).to.deep.equal({
      ...kept,
      refresh: '6h',
      etag: '"e2"',
      sha256: 'b'.repeat(64),
      format: null,
      null_tokens: [],
      header_row: null,
      sort_by: null,
      auto_facets: true,
    });
    expect(() => recordSource(base, null, { refresh: '6h' })).to.throw(
      '--refresh: the source must be an http',
    );
    expect(recordSource(previous, previous, { refresh: 'off' })).to.not.have.property('source');
    expect(recordSource(base, previous, {}).source).to.equal(kept);
    // The same URL downloaded again: new validators, the period and reading flags kept, a flag
    // given again replacing its own.
    expect(recordSource(base, previous, { downloaded: facts }).source).to.deep.equal({
      ...kept,
      etag: '"e2"',
      sha256: 'b'.repeat(64),
    });
    expect(
      recordSource(base, previous, { downloaded: facts, headerRow: 5, autoFacets: true }).source,
    ).to.deep.equal({ ...kept, etag: '"e2"', sha256: 'b'.repeat(64), header_row: 5, auto_facets: true });
    // Another URL without --refresh: the source recorded stays.
    expect(
      recordSource(base, previous, { downloaded: { ...facts, url: 'https://other.org/b.csv' } }).source,
    ).to.equal(kept);
  });

  it('reads periods of minutes, hours or days', () => {
    expect(['30m', '6h', '1d', 'off'].map(parseRefresh)).to.deep.equal(['30m', '6h', '1d', 'off']);
    for (const bad of ['0h', '6', 'h', '1w', '1.5h', ' 6h'])
      expect(() => parseRefresh(bad), bad).to.throw('expected 30m');
    expect(['30m', '6h', '1d'].map(refreshPeriodMs)).to.deep.equal([1_800_000, 21_600_000, 86_400_000]);
  });
});
