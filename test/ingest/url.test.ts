// Sources at http:// URLs, served by a local server the test starts: a CSV, a 404, a body over
// --max-download, a server that stalls; the temporary copy never outlives the ingest.
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ingest } from '../../src/ingest/ingest.js';
import { expectError } from './csv.test.js';
import { fieldTypes, readRows, useHttpServer, useTempPortal } from './helpers.js';

const CSV = 'station;depth\nBrest;12,5\nSète;NA\n';

/** Temporary download folders left in the system's temp folder. */
const downloads = async (): Promise<string[]> =>
  (await readdir(os.tmpdir())).filter((name) => name.startsWith('duckportal-download-'));

describe('ingest: sources at a URL', () => {
  const temp = useTempPortal();
  const server = useHttpServer((request, response) => {
    if (request.url === '/data/stations.csv') {
      response.setHeader('Content-Type', 'text/csv');
      response.end(CSV);
    } else if (request.url === '/big.csv') {
      response.write('a,b\n');
      response.end(`${'1,2\n'.repeat(20_000)}`);
    } else if (request.url === '/stall.csv') {
      response.write('a,b\n1,');
    } else {
      response.statusCode = 404;
      response.end('not here');
    }
  });

  it('downloads the file, reads it by its extension, and removes the copy', async () => {
    const before = await downloads();
    const report = await ingest({
      file: `${server.base}/data/stations.csv`,
      portal: temp.portal,
      id: 'stations',
    });
    expect([report.format, report.recordsCount]).to.deep.equal(['csv', 2]);
    expect(await fieldTypes(temp.portal, 'stations')).to.deep.equal({ station: 'text', depth: 'double' });
    expect(await readRows(temp.portal, 'stations', 'station, depth')).to.deep.equal([
      { station: 'Brest', depth: 12.5 },
      { station: 'Sète', depth: null },
    ]);
    expect(await downloads()).to.deep.equal(before);
  });

  it('refuses a 404, a body over --max-download and a stalled server, naming the URL, leaving nothing', async () => {
    const before = await downloads();
    await expectError(
      ingest({ file: `${server.base}/nowhere.csv`, portal: temp.portal, id: 'a' }),
      /^http:\/\/127\.0\.0\.1:\d+\/nowhere\.csv: HTTP 404/,
    );
    await expectError(
      ingest({ file: `${server.base}/big.csv`, portal: temp.portal, id: 'b', maxDownload: 10_000 }),
      /^http:\/\/127\.0\.0\.1:\d+\/big\.csv: more than --max-download \(10000 bytes\)/,
    );
    await expectError(
      ingest({ file: `${server.base}/stall.csv`, portal: temp.portal, id: 'c', downloadStallMs: 300 }),
      /^http:\/\/127\.0\.0\.1:\d+\/stall\.csv: the download stalled/,
    );
    expect(existsSync(path.join(temp.portal, 'datasets'))).to.equal(false);
    expect(await downloads()).to.deep.equal(before);
  });
});
