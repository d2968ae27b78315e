// The `duckportal ingest` command line: option parsing, and the real CLI's output and exit codes.
import { expect } from 'chai';
import { fixture, ingestCommand, readDatasetFile, useTempPortal } from './helpers.js';

describe('ingest: command', () => {
  const temp = useTempPortal();

  it('takes every option from the command line', async () => {
    const file = await fixture(
      temp.dir,
      'towns.txt',
      'code,name,y,x,tags,path\nA1,Paris,48.85,2.35,a;b,x://y\n',
    );
    const flags = ['--title', 'Towns', '--geo-point', 'y, x', '--facet', 'name,code', '--facet', 'tags'];
    const more = [
      '--multivalued',
      'tags:;',
      '--multivalued',
      'path:://',
      '--record-id',
      'code',
      '--format',
      'csv',
    ];
    const { stdout, stderr } = await ingestCommand(file, temp.portal, 'towns', ...flags, ...more, '-q');
    expect(stdout).to.match(/^towns: 1 records, 7 fields -> /);
    expect(stderr).to.equal('');
    const stored = await readDatasetFile(temp.portal, 'towns');
    expect(stored.metas.default.title).to.equal('Towns');
    const annotations = Object.fromEntries(stored.fields.map((f) => [f.name, f.annotations]));
    expect(annotations).to.deep.include({
      code: { facet: [], id: [] },
      name: { facet: [] },
      tags: { facet: [], multivalued: [';'] },
      path: { multivalued: ['://'] },
    });
    expect(stored.fields.map((f) => f.type)).to.deep.equal([
      'text',
      'text',
      'double',
      'double',
      'text',
      'text',
      'geo_point_2d',
    ]);
  });

  it('ingests through the real CLI, reporting progress on stderr', async () => {
    const file = await fixture(temp.dir, 'towns.csv', 'name,lat,lon\nParis,48.85,2.35\n');
    const { stdout, stderr } = await ingestCommand(file, temp.portal, 'towns', '--facet', 'name');
    expect(stdout).to.match(/^towns: 1 records, 4 fields -> .*towns\n$/);
    expect(stderr).to.match(
      new RegExp(`^portal: ${temp.portal} \\(new portal\\)\ntowns: \\[0\\.\\d s\\] reading `),
    );
    expect(stderr).to.include('writing data.parquet');
    expect((await readDatasetFile(temp.portal, 'towns')).fields.map((f) => f.name)).to.deep.equal([
      'name',
      'lat',
      'lon',
      'geo_point_2d',
    ]);
  });

  it('exits 1 with one clear line on bad input', async () => {
    const file = await fixture(temp.dir, 'bad.csv', 'a,b\n1\n');
    const failure = await ingestCommand(file, temp.portal, 'bad', '-q').catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).to.include({ code: 1 });
    expect((failure as { stderr: string }).stderr).to.equal(
      `duckportal: ${file}: line 2: 1 column where the header has 2\n`,
    );
  });
});
