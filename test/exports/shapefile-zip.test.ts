// The shapefile's zip reads its temp files after the export has begun: a file gone by then (the
// portal closed and its spill folder wiped under a download) fails that download's stream, never
// the process (it did: yazl's error had no listener, an uncaught exception in a clean clone's run).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { zipOf } from '../../src/exports/shapefile-format.js';

describe('the shapefile zip', () => {
  let dir: string;
  before(async () => (dir = await mkdtemp(path.join(tmpdir(), 'shp-zip-'))));
  after(() => rm(dir, { recursive: true, force: true }));

  /** The zip's stream read to its end: its bytes, or the error that failed it. */
  const read = (output: NodeJS.ReadableStream): Promise<Buffer | Error> =>
    new Promise((resolve) => {
      const chunks: Buffer[] = [];
      output.on('data', (chunk: Buffer) => chunks.push(chunk));
      output.on('end', () => resolve(Buffer.concat(chunks)));
      output.on('error', (error: Error) => resolve(error));
    });

  it('zips the three files with the .prj and .cpg, then removes them', async () => {
    const paths = {
      shp: path.join(dir, 'a.shp'),
      shx: path.join(dir, 'a.shx'),
      dbf: path.join(dir, 'a.dbf'),
    };
    for (const file of Object.values(paths)) await writeFile(file, 'x');
    let removed = 0;
    const zip = await read(
      zipOf(paths, { name: 'towns', projection: null }, () => Promise.resolve(removed++)),
    );
    expect(zip).to.be.instanceOf(Buffer);
    const names = ['towns.shp', 'towns.shx', 'towns.dbf', 'towns.prj', 'towns.cpg'];
    for (const name of names) expect((zip as Buffer).includes(name)).to.equal(true, name);
    expect(removed).to.be.greaterThan(0);
  });

  it('fails its stream when a file is gone before it is read, and still removes the others', async () => {
    const paths = {
      shp: path.join(dir, 'gone.shp'),
      shx: path.join(dir, 'b.shx'),
      dbf: path.join(dir, 'b.dbf'),
    };
    await writeFile(paths.shx, 'x');
    await writeFile(paths.dbf, 'x');
    let removed = 0;
    const outcome = await read(
      zipOf(paths, { name: 'towns', projection: null }, () => Promise.resolve(removed++)),
    );
    expect(outcome).to.be.instanceOf(Error);
    expect((outcome as NodeJS.ErrnoException).code).to.equal('ENOENT');
    expect(removed).to.be.greaterThan(0);
  });
});
