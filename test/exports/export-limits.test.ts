// The limits every export path shares (src/api/export-response.ts), on fixture portals with a
// 2,000,000-row dataset: a client reading below the minimum transfer rate is cut off and
// everything it held is freed; a caller past concurrent_exports gets 429 while others still export.
import { expect } from 'chai';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { KeyStore } from '../../src/auth/keys.js';
import { openPipes } from '../../src/engine/duckdb/copy-stream.js';
import { runningStreams } from '../../src/exports/query-stream.js';
import { readSlowly, settle } from '../helpers/downloads.js';
import { startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';

const V21 = '/api/explore/v2.1';
const ROWS = 2_000_000;

/** Adds dataset `big` (ROWS rows of 64-character words, about 130 MB as CSV) and sets the quotas. */
async function preparePortal(dir: string, quotas: Record<string, unknown>): Promise<void> {
  const big = path.join(dir, 'datasets', 'big');
  await mkdir(big, { recursive: true });
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run(`COPY (SELECT 'w' || i AS _recordid, md5(i::VARCHAR) || md5((i + 1)::VARCHAR) AS word
    FROM range(${ROWS}) r(i)) TO '${path.join(big, 'data.parquet')}' (FORMAT parquet)`);
  connection.closeSync();
  instance.closeSync();
  const words = JSON.parse(await readFile(path.join(dir, 'datasets', 'words', 'dataset.json'), 'utf8'));
  words.dataset_uid = 'da_big';
  words.computed.records_count = ROWS;
  await writeFile(path.join(big, 'dataset.json'), JSON.stringify(words));
  const portal = JSON.parse(await readFile(path.join(dir, 'portal.json'), 'utf8'));
  await writeFile(path.join(dir, 'portal.json'), JSON.stringify({ ...portal, quotas }));
}

/**
 * An export whose client reads nothing after the headers. `finish` then reads what is left and
 * tells how the body ended: a paused client notices a closed connection only once it reads again.
 */
function stalledDownload(url: string, headers: Record<string, string> = {}) {
  let request!: http.ClientRequest;
  const started = new Promise<http.IncomingMessage>((resolve, reject) => {
    request = http.get(url, { agent: false, headers }, (response) => {
      response.pause();
      resolve(response);
    });
    request.on('error', reject);
  });
  const finish = async (): Promise<'complete' | 'cut'> => {
    const response = await started;
    return new Promise((resolve) => {
      response.on('end', () => resolve('complete'));
      response.on('error', () => resolve('cut'));
      response.resume();
    });
  };
  return { started, finish, drop: () => request.destroy() };
}

describe('export limits (fixture portal with a large dataset)', () => {
  describe('minimum transfer rate (64 KiB/s over 1 s windows)', () => {
    let server: TestServer;
    before(async () => {
      server = await startFixtureServer((dir) =>
        preparePortal(dir, { export_min_rate: { bytes_per_second: 65_536, window_seconds: 1 } }),
      );
    });
    after(() => server.close());

    const freed = async (): Promise<void> => {
      const { engine } = server.portal.services;
      const slots = server.portal.services.guard.exportSlots();
      await settle(() => slots.size === 0 && runningStreams === 0 && openPipes.size === 0);
      expect({ slots: slots.size, runningStreams, openPipes: openPipes.size }).to.deep.equal({
        slots: 0,
        runningStreams: 0,
        openPipes: 0,
      });
      // Every connection is back in the pool (8, the engine's default).
      await settle(() => engine.idleConnections === 8);
      expect(engine.idleConnections).to.equal(8);
    };

    for (const [format, kind] of [
      ['csv', 'DuckDB COPY into a pipe'],
      ['turtle', 'chunks formatted in SQL'],
    ]) {
      it(`${format} (${kind}): a client that stops reading is cut off and frees query, pipe and slot`, async () => {
        const download = stalledDownload(`${server.base}${V21}/catalog/datasets/big/exports/${format}`);
        expect((await download.started).statusCode).to.equal(200);
        await freed();
        expect(await download.finish()).to.equal('cut');
        expect(
          server.logs.filter((line) => line.includes(`big/exports/${format}: client cut off`)),
        ).to.have.length(1);
      });
    }

    it('v1 download: the same floor applies', async () => {
      const download = stalledDownload(`${server.base}/api/records/1.0/download?dataset=big&format=json`);
      expect((await download.started).statusCode).to.equal(200);
      await freed();
      expect(await download.finish()).to.equal('cut');
      expect(server.logs.filter((line) => line.includes('download: client cut off'))).to.have.length(1);
    });

    it('a client reading at full speed gets all 2,000,000 rows', async () => {
      const response = await server.get(`${V21}/catalog/datasets/big/exports/csv?with_bom=false`);
      expect(response.status).to.equal(200);
      const bytes = Buffer.from(await response.arrayBuffer());
      let lines = 0;
      for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) lines++;
      expect(lines).to.equal(ROWS + 1);
    });
  });

  // The floor times the window (3 MiB) stays above the steps the kernel's buffers take as they
  // grow (1.3-1.5 MB, docs/access-control.md), as the default's 1.9 MB does.
  describe('minimum transfer rate (512 KiB/s over 6 s windows)', () => {
    let server: TestServer;
    before(async () => {
      server = await startFixtureServer((dir) =>
        preparePortal(dir, { export_min_rate: { bytes_per_second: 524_288, window_seconds: 6 } }),
      );
    });
    after(() => server.close());

    // The kernel's buffers take megabytes at once when the export starts: a window that counted
    // them let a client reading at 4 KiB/s through the first window and cut it only at the end of
    // the second (240 s with the default 120 s window). settle() waits 10 s.
    it('cuts a client reading at 4 KiB/s within one window of falling behind, and stops its query', async () => {
      const started = performance.now();
      const reader = await readSlowly(`${server.base}${V21}/catalog/datasets/big/exports/csv`, 4096);
      const cut = () => server.logs.filter((line) => line.includes('big/exports/csv: client cut off'));
      await settle(() => cut().length > 0);
      const bytes = reader.stop();
      console.log(
        `        slow reader: ${bytes} bytes read, cut: ${cut().length > 0} after ${Math.round(performance.now() - started)} ms`,
      );
      expect(cut()).to.have.length(1);
      const { engine } = server.portal.services;
      await settle(() => engine.runningExports === 0 && openPipes.size === 0);
      expect({ exports: engine.runningExports, pipes: openPipes.size }).to.deep.equal({
        exports: 0,
        pipes: 0,
      });
    });
  });

  describe('concurrent exports per caller (concurrent_exports: 1, no rate floor)', () => {
    let server: TestServer;
    let key: string;
    before(async () => {
      server = await startFixtureServer(async (dir) => {
        key = new KeyStore(dir).create('alice').key;
        await preparePortal(dir, { concurrent_exports: 1, export_min_rate: null });
      });
    });
    after(() => server.close());

    const EXPORT_PATHS = [
      `${V21}/catalog/datasets/words/exports/csv`,
      `${V21}/catalog/datasets/towns/exports/geojson`,
      `${V21}/catalog/exports/csv`,
      `${V21}/catalog/exports/dcat?dcat_ap_format=_ap_de`,
      `/api/records/1.0/download?dataset=words&format=csv`,
    ];

    it('refuses a second export on every export path with 429 TooManyExports, while another caller exports', async () => {
      const holder = stalledDownload(`${server.base}${V21}/catalog/datasets/big/exports/csv`);
      expect((await holder.started).statusCode).to.equal(200);
      for (const route of EXPORT_PATHS) {
        const refused = await server.get(route);
        expect([route, refused.status]).to.deep.equal([route, 429]);
        expect(refused.headers.get('retry-after')).to.equal('5');
        const body = await refused.json();
        // v1 answers in its own error form, with the same text.
        if (route.startsWith('/api/records')) expect(body.error).to.match(/^Too many exports/);
        else expect(body.error_code).to.equal('TooManyExports');
        const other = await server.get(route, { headers: { Authorization: `Apikey ${key}` } });
        expect([route, other.status]).to.deep.equal([route, 200]);
        await other.arrayBuffer();
      }
      // Records are not exports: the caller still reads pages.
      expect((await server.json(`${V21}/catalog/datasets/big/records?limit=1`)).status).to.equal(200);
      holder.drop();
      const slots = server.portal.services.guard.exportSlots();
      await settle(() => slots.size === 0);
      expect(slots.size).to.equal(0);
      // One at a time: each body is read to its end, which frees the slot for the next.
      for (const route of EXPORT_PATHS) {
        const again = await server.get(route);
        expect([route, again.status]).to.deep.equal([route, 200]);
        await again.arrayBuffer();
        await settle(() => slots.size === 0);
      }
    });
  });

  describe('exports held by readers that stop (concurrent_exports: 16, no rate floor)', () => {
    let server: TestServer;
    before(async () => {
      // Computed exports only: the first CSV's shared file, written in the background, would hold
      // a 13th export connection.
      server = await startFixtureServer(
        (dir) => preparePortal(dir, { concurrent_exports: 16, export_min_rate: null }),
        { sharedExports: false },
      );
    });
    after(() => server.close());

    it('12 stalled exports (COPY pipes and SQL-formatted chunks) leave every pooled connection to JSON queries', async () => {
      const held = Array.from({ length: 12 }, (_, i) =>
        stalledDownload(`${server.base}${V21}/catalog/datasets/big/exports/${i % 2 ? 'turtle' : 'csv'}`),
      );
      for (const download of held) expect((await download.started).statusCode).to.equal(200);
      const { engine } = server.portal.services;
      expect(engine.runningExports).to.equal(12);
      const pages = await Promise.all(
        Array.from({ length: 16 }, () => server.json(`${V21}/catalog/datasets/big/records?limit=1`)),
      );
      expect(pages.map((p) => p.body.total_count)).to.deep.equal(Array(16).fill(ROWS));
      held.forEach((download) => download.drop());
      await settle(() => engine.runningExports === 0 && openPipes.size === 0 && runningStreams === 0);
      expect({
        exports: engine.runningExports,
        pipes: openPipes.size,
        streams: runningStreams,
      }).to.deep.equal({
        exports: 0,
        pipes: 0,
        streams: 0,
      });
    });
  });
});
