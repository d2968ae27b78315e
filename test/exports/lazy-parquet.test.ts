// A lazy reader over the shared Parquet file of the sample flights (3M rows): its bytes equal the
// computed export's, its row groups hold 100k-1M rows with statistics, and hyparquet reading two
// columns of one row group by Range requests fetches under 5% of the file (the bytes counted).
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SHARED_EXPORT_HEADER } from '../../src/api/shared-export-response.js';
import { readRowGroupLazily } from '../helpers/lazy-parquet.js';
import { rawGet } from '../helpers/raw-http.js';
import { openReference, SAMPLE_PORTAL, type Reference } from '../helpers/sample-portal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ROUTE = '/api/explore/v2.1/catalog/datasets/flights/exports/parquet';

/** Waits for the shared file of `variant` of `dataset` to be there; its path. */
export async function sharedFileOf(portal: string, dataset: string, variant: string): Promise<string> {
  const folder = path.join(portal, '.exports', dataset);
  for (let tries = 0; tries < 1200; tries++) {
    const found = (await readdir(folder).catch(() => [])).find((name) => name.endsWith(variant));
    if (found) return path.join(folder, found);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no shared ${variant} of ${dataset} was written`);
}

describe('a lazy Parquet reader over the shared file (sample flights)', function () {
  this.timeout(180_000);
  let dir: string;
  let server: TestServer;
  let reference: Reference;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-lazy-'));
    await copyFile(path.join(SAMPLE_PORTAL, 'portal.json'), path.join(dir, 'portal.json'));
    await mkdir(path.join(dir, 'datasets'));
    // Hard links: the 106 MB of flights are read, never written.
    await promisify(execFile)('cp', [
      '-al',
      path.join(SAMPLE_PORTAL, 'datasets', 'flights'),
      path.join(dir, 'datasets'),
    ]);
    server = await startTestServer(dir, { cacheBytes: 0, sharedExports: true });
    reference = await openReference();
  });
  after(async () => {
    await server.close();
    reference.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the computed bytes, then reads two columns of one row group in under 5% of the file', async () => {
    const computed = await rawGet(server.base, ROUTE);
    expect(computed.headers[SHARED_EXPORT_HEADER.toLowerCase()]).to.equal(undefined);
    const file = await sharedFileOf(dir, 'flights', '.v2.1.parquet');
    const shared = await rawGet(server.base, ROUTE);
    expect(shared.headers[SHARED_EXPORT_HEADER.toLowerCase()]).to.equal('shared-file');
    const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
    expect(sha(shared.body)).to.equal(sha(computed.body));

    const read = await readRowGroupLazily(server.base + ROUTE, ['origin', 'delay'], 3);
    expect(read.fileBytes).to.equal(shared.body.length);
    expect(read.groupRows.reduce((a, b) => a + b)).to.equal(3_000_000);
    for (const rows of read.groupRows.slice(0, -1)) expect(rows).to.be.within(100_000, 1_000_000);
    expect(read.rows).to.have.length(read.groupRows[3]!);
    expect(read.bytes / read.fileBytes).to.be.below(0.05);
    // The rows read are the file's: the same as DuckDB reads at that place.
    const escaped = file.replaceAll("'", "''");
    const [first] = await reference.rows(
      `SELECT origin, delay FROM '${escaped}' LIMIT 1 OFFSET ${read.rowStart}`,
    );
    const row = read.rows[0]!;
    expect([row.origin, String(row.delay)]).to.deep.equal([first!.origin, String(first!.delay)]);
    // Statistics per row group and column: min and max of delay in the footer.
    const [stats] = await reference.rows(
      `SELECT count(*)::INTEGER AS n FROM parquet_metadata('${escaped}') WHERE path_in_schema = 'delay' AND stats_min IS NOT NULL AND stats_max IS NOT NULL`,
    );
    expect(stats!.n).to.equal(read.groupRows.length);
  });
});
