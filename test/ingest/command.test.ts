// The `duckportal ingest` command line: option parsing, and the real CLI's output and exit codes.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseIngestArgs, parseMultivalued } from '../../src/ingest/command.js';
import { cleanup, fixture, readDatasetFile, tempDir } from './helpers.js';

const run = promisify(execFile);
const CLI = path.resolve('bin/duckportal.cjs');

describe('ingest: command', () => {
  after(cleanup);

  it('parses every option', () => {
    const options = parseIngestArgs([
      'towns.csv',
      '--portal',
      'p',
      '--id',
      'towns',
      '--title',
      'Towns',
      '--geo-point',
      'y, x',
      '--facet',
      'a,b',
      '--facet',
      'c',
      '--multivalued',
      'tags:;',
      '--multivalued',
      'path:://',
      '--record-id',
      'code',
      '--format',
      'csv',
      '--quiet',
    ]);
    expect(options).to.deep.equal({
      file: 'towns.csv',
      portal: 'p',
      id: 'towns',
      title: 'Towns',
      format: 'csv',
      geoPoint: { lat: 'y', lon: 'x' },
      facets: ['a', 'b', 'c'],
      multivalued: { tags: ';', path: '://' },
      recordId: 'code',
    });
  });

  it('explains what is missing or malformed', () => {
    expect(() => parseIngestArgs(['--portal', 'p', '--id', 'x'])).to.throw(/expected exactly one input file/);
    expect(() => parseIngestArgs(['f.csv', '--id', 'x'])).to.throw(/--portal is required/);
    expect(() => parseIngestArgs(['f.csv', '--portal', 'p'])).to.throw(/--id is required/);
    expect(() => parseIngestArgs(['f.csv', '--portal', 'p', '--id', 'x', '--geo-point', 'lat'])).to.throw(
      /LATCOL,LONCOL/,
    );
    expect(() => parseIngestArgs(['f.csv', '--portal', 'p', '--id', 'x', '--format', 'xls'])).to.throw(
      /unknown input format "xls"/,
    );
    expect(() => parseIngestArgs(['f.csv', '--portal', 'p', '--id', 'x', '--max-download', 'lots'])).to.throw(
      /--max-download: expected bytes such as 500M or 2G, got "lots"/,
    );
    expect(
      parseIngestArgs(['f.csv', '--portal', 'p', '--id', 'x', '--max-download', '500M']).maxDownload,
    ).to.equal(500 * 2 ** 20);
    expect(() => parseIngestArgs(['f.csv', '--portal', 'p', '--id', 'x', '--bogus'])).to.throw(/bogus/);
    expect(() => parseMultivalued(['tags'])).to.throw(/FIELD:SEP/);
    expect(() => parseMultivalued(['tags:'])).to.throw(/FIELD:SEP/);
  });

  it('ingests through the real CLI, reporting progress on stderr', async () => {
    const dir = await tempDir();
    const file = await fixture(dir, 'towns.csv', 'name,lat,lon\nParis,48.85,2.35\n');
    const portal = path.join(dir, 'portal');
    const { stdout, stderr } = await run(CLI, [
      'ingest',
      file,
      '--portal',
      portal,
      '--id',
      'towns',
      '--facet',
      'name',
    ]);
    expect(stdout).to.match(/^towns: 1 records, 4 fields -> .*towns\n$/);
    expect(stderr).to.match(/^towns: \[0\.\d s\] reading /);
    expect(stderr).to.include('writing data.parquet');
    expect((await readDatasetFile(portal, 'towns')).fields.map((f) => f.name)).to.deep.equal([
      'name',
      'lat',
      'lon',
      'geo_point_2d',
    ]);
  });

  it('exits 1 with one clear line on bad input', async () => {
    const dir = await tempDir();
    const file = await fixture(dir, 'bad.csv', 'a,b\n1\n');
    const failure = await run(CLI, [
      'ingest',
      file,
      '--portal',
      path.join(dir, 'p'),
      '--id',
      'bad',
      '-q',
    ]).catch((error: { code: number; stderr: string }) => error);
    expect(failure).to.include({ code: 1 });
    expect((failure as { stderr: string }).stderr).to.equal(
      `duckportal: ${file}: line 2: 1 column where the header has 2\n`,
    );
  });
});
