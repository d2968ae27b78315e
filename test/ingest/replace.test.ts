// Re-ingest: atomic replacement, and what carries over from the previous version (uid, metas, hand edits, attachments).
import { expect } from 'chai';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ingest } from '../../src/ingest/ingest.js';
import { expectError } from './csv.test.js';
import { quoteString } from '../../src/sql/quoting.js';
import { fixture, query, readDatasetFile, readRows, treeDigest, useTempPortal } from './helpers.js';

describe('ingest: re-ingest and atomic replace', () => {
  const temp = useTempPortal();
  let file: string;
  beforeEach(async () => {
    file = await fixture(
      temp.dir,
      'towns.csv',
      'name,tags,founded\nParis,big;old,0300-01-01\nLyon,old,2000-05-06\n',
    );
  });

  const datasetJson = (id: string): string => path.join(temp.portal, 'datasets', id, 'dataset.json');

  it('creates portal.json with defaults, and leaves an existing one alone', async () => {
    await ingest({ file, portal: temp.portal, id: 'towns' });
    expect(JSON.parse(await readFile(path.join(temp.portal, 'portal.json'), 'utf8'))).to.deep.equal({
      title: 'duckportal',
      domain: 'localhost',
      aliases: [],
      language: 'en',
      timezone: 'UTC',
      private: false,
      quotas: {
        per_key: 100_000,
        per_ip: 10_000,
        portal: null,
        concurrent_exports: 4,
        export_min_rate: { bytes_per_second: 16_384, window_seconds: 120 },
      },
      catalog_facets: [],
    });
    await writeFile(path.join(temp.portal, 'portal.json'), '{"title": "Mine", "language": "fr"}');
    await ingest({ file, portal: temp.portal, id: 'towns' });
    expect(await readFile(path.join(temp.portal, 'portal.json'), 'utf8')).to.equal(
      '{"title": "Mine", "language": "fr"}',
    );
  });

  it('refuses a dataset id outside ^[a-z0-9][a-z0-9_-]*$', async () => {
    for (const id of ['Towns', '-towns', '../towns', 'to wns', '']) {
      await expectError(ingest({ file, portal: temp.portal, id }), /invalid dataset id/);
    }
  });

  it('a re-ingest failing at its last step leaves the previous dataset byte-identical and no staging left', async () => {
    await ingest({ file, portal: temp.portal, id: 'towns', title: 'Towns' });
    const before = await treeDigest(temp.portal);
    const changed = await fixture(temp.dir, 'towns2.csv', 'name\nNantes\n');
    // The attachment is copied last, after data.parquet, the search index and dataset.json are staged.
    await expectError(
      ingest({
        file: changed,
        portal: temp.portal,
        id: 'towns',
        attachments: [path.join(temp.dir, 'missing.pdf')],
      }),
      /missing\.pdf/,
    );
    expect(await treeDigest(temp.portal)).to.deep.equal(before);
    expect(await readdir(path.join(temp.portal, 'datasets'))).to.deep.equal(['towns']);
    expect((await readRows(temp.portal, 'towns', 'name')).map((r) => r.name)).to.deep.equal([
      'Paris',
      'Lyon',
    ]);
  });

  it('a re-ingest of bad input leaves the previous dataset byte-identical', async () => {
    await ingest({ file, portal: temp.portal, id: 'towns' });
    const before = await treeDigest(temp.portal);
    const ragged = await fixture(temp.dir, 'ragged.csv', 'name,tags\nParis\n');
    await expectError(ingest({ file: ragged, portal: temp.portal, id: 'towns' }), /ragged\.csv: line 2/);
    expect(await treeDigest(temp.portal)).to.deep.equal(before);
  });

  it('keeps uid, metas, visibility, app metas and hand edits of fields whose name is unchanged', async () => {
    await ingest({
      file,
      portal: temp.portal,
      id: 'towns',
      title: 'Towns',
      metas: { default: { keyword: ['a'] }, dcat: { creator: 'me' } },
    });
    const first = await readDatasetFile(temp.portal, 'towns');
    expect(first.dataset_uid).to.match(/^da_[0-9a-z]+$/);
    const edited = {
      ...first,
      visibility: 'restricted',
      app_metas: { color: 'blue' },
      fields: first.fields.map((f) =>
        f.name === 'name'
          ? { ...f, label: 'Town', description: 'Its name', annotations: { facet: [], sortable: [] } }
          : f,
      ),
    };
    await writeFile(datasetJson('towns'), JSON.stringify(edited));
    const renamed = await fixture(temp.dir, 'towns3.csv', 'name,population\nParis,2100000\n');
    await ingest({ file: renamed, portal: temp.portal, id: 'towns', metas: { default: { keyword: ['b'] } } });
    const second = await readDatasetFile(temp.portal, 'towns');
    expect(second.dataset_uid).to.equal(first.dataset_uid);
    expect(second.visibility).to.equal('restricted');
    expect(second.app_metas).to.deep.equal({ color: 'blue' });
    expect(second.metas.default.title).to.equal('Towns');
    expect(second.metas.default.keyword).to.deep.equal(['b']);
    expect(second.metas.dcat).to.deep.equal({ creator: 'me' });
    expect(second.fields).to.deep.equal([
      {
        name: 'name',
        label: 'Town',
        type: 'text',
        description: 'Its name',
        annotations: { facet: [], sortable: [] },
      },
      { name: 'population', label: 'population', type: 'int', description: null, annotations: {} },
    ]);
  });

  it('titles a new dataset with its id, and --title replaces the previous title', async () => {
    await ingest({ file, portal: temp.portal, id: 'towns' });
    expect((await readDatasetFile(temp.portal, 'towns')).metas.default.title).to.equal('towns');
    await ingest({ file, portal: temp.portal, id: 'towns', title: 'French towns' });
    expect((await readDatasetFile(temp.portal, 'towns')).metas.default.title).to.equal('French towns');
  });

  it('splits --multivalued fields, adds --facet, and reapplies the split on a plain re-ingest', async () => {
    await ingest({
      file,
      portal: temp.portal,
      id: 'towns',
      multivalued: { tags: ';' },
      facets: ['tags', 'Name'],
    });
    const fields = (await readDatasetFile(temp.portal, 'towns')).fields;
    expect(fields.map((f) => [f.name, f.type, f.annotations])).to.deep.equal([
      ['name', 'text', { facet: [] }],
      ['tags', 'text', { facet: [], multivalued: [';'] }],
      ['founded', 'date', { timerangeFilter: [] }],
    ]);
    const rows = async (): Promise<unknown[]> =>
      (await readRows(temp.portal, 'towns', 'tags')).map((r) => r.tags);
    expect(await rows()).to.deep.equal([['big', 'old'], ['old']]);
    await ingest({ file, portal: temp.portal, id: 'towns' });
    expect(await rows()).to.deep.equal([['big', 'old'], ['old']]);
  });

  it('trims items and drops empty ones when splitting', async () => {
    const messy = await fixture(temp.dir, 'messy.csv', 'tags\n" a | b ||"\n"|"\n');
    await ingest({ file: messy, portal: temp.portal, id: 'messy', multivalued: { tags: '|' } });
    expect((await readRows(temp.portal, 'messy', 'tags')).map((r) => r.tags)).to.deep.equal([
      ['a', 'b'],
      null,
    ]);
  });

  it('refuses --multivalued or --facet on a field that does not exist, or on a non-text field', async () => {
    await expectError(
      ingest({ file, portal: temp.portal, id: 'towns', multivalued: { nope: ';' } }),
      /--multivalued: no field "nope"/,
    );
    await expectError(
      ingest({ file, portal: temp.portal, id: 'towns', facets: ['nope'] }),
      /--facet: no field "nope"/,
    );
    const numbers = path.join(temp.dir, 'numbers.parquet');
    await query(`COPY (SELECT 1 AS n) TO ${quoteString(numbers)} (FORMAT parquet)`);
    await expectError(
      ingest({ file: numbers, portal: temp.portal, id: 'numbers', multivalued: { n: ';' } }),
      /field "n" is not text/,
    );
  });

  it('keeps the processing dates when the data and metas did not change', async () => {
    await ingest({ file, portal: temp.portal, id: 'towns' });
    const first = await readDatasetFile(temp.portal, 'towns');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const same = await ingest({ file, portal: temp.portal, id: 'towns' });
    expect(same.dataChanged).to.equal(false);
    expect((await readDatasetFile(temp.portal, 'towns')).computed).to.deep.equal(first.computed);
    await ingest({ file, portal: temp.portal, id: 'towns', title: 'New title' });
    const retitled = await readDatasetFile(temp.portal, 'towns');
    expect(retitled.computed.data_processed).to.equal(first.computed.data_processed);
    expect(retitled.computed.metadata_processed).not.to.equal(first.computed.metadata_processed);
    const other = await fixture(temp.dir, 'other.csv', 'name\nNantes\n');
    const changed = await ingest({ file: other, portal: temp.portal, id: 'towns' });
    expect(changed.dataChanged).to.equal(true);
    expect((await readDatasetFile(temp.portal, 'towns')).computed.data_processed).not.to.equal(
      first.computed.data_processed,
    );
  });

  it('keeps previous attachments and their marks for all audiences, and adds new ones with their titles and types', async () => {
    const notes = await fixture(temp.dir, 'notes.txt', 'v1');
    await ingest({ file, portal: temp.portal, id: 'towns', attachments: [notes] });
    const marks = [{ file: 'notes.txt', all_audiences: true }];
    const first = await readDatasetFile(temp.portal, 'towns');
    await writeFile(datasetJson('towns'), JSON.stringify({ ...first, attachments: marks }));
    const map = await fixture(temp.dir, 'map.png', 'png bytes');
    await ingest({ file, portal: temp.portal, id: 'towns', attachments: [map] });
    const attachments = path.join(temp.portal, 'datasets', 'towns', 'attachments');
    expect((await readdir(attachments)).sort()).to.deep.equal(['map.png', 'notes.txt']);
    expect(await readFile(path.join(attachments, 'notes.txt'), 'utf8')).to.equal('v1');
    expect((await readDatasetFile(temp.portal, 'towns')).attachments).to.deep.equal([
      ...marks,
      { file: 'map.png', title: 'map.png', mime_type: 'image/png', all_audiences: false },
    ]);
  });

  it('refuses to overwrite a dataset.json that no longer validates', async () => {
    await ingest({ file, portal: temp.portal, id: 'towns' });
    await writeFile(datasetJson('towns'), '{"dataset_uid": "x"}');
    const before = await treeDigest(temp.portal);
    await expectError(
      ingest({ file, portal: temp.portal, id: 'towns' }),
      /dataset\.json: .*fix it or remove it/,
    );
    expect(await treeDigest(temp.portal)).to.deep.equal(before);
  });
});
