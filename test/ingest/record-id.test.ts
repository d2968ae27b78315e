// Record ids: digests stable across re-ingests, or a chosen field that must be unique and never empty.
import { expect } from 'chai';
import { ingest } from '../../src/ingest/ingest.js';
import { expectError } from './csv.test.js';
import { fixture, readDatasetFile, readRows, treeDigest, useTempPortal } from './helpers.js';

describe('ingest: record ids', () => {
  const temp = useTempPortal();

  const ids = async (id: string): Promise<string[]> =>
    (await readRows(temp.portal, id, '_recordid')).map((row) => row._recordid as string);

  it('gives every row a hex digest, distinct even for identical rows, stable across re-ingests', async () => {
    const file = await fixture(temp.dir, 'twins.csv', 'a,b\n1,x\n1,x\n2,y\n');
    await ingest({ file, portal: temp.portal, id: 'twins' });
    const first = await ids('twins');
    expect(first).to.have.length(3);
    for (const id of first) expect(id).to.match(/^[0-9a-f]{20}$/);
    expect(new Set(first).size).to.equal(3);
    await ingest({ file, portal: temp.portal, id: 'twins' });
    expect(await ids('twins')).to.deep.equal(first);
  });

  it('changes only the id of a row whose values changed', async () => {
    const file = await fixture(temp.dir, 'rows.csv', 'a,b\n1,x\n2,y\n3,z\n');
    await ingest({ file, portal: temp.portal, id: 'rows' });
    const before = await ids('rows');
    await fixture(temp.dir, 'rows.csv', 'a,b\n1,x\n2,CHANGED\n3,z\n');
    await ingest({ file, portal: temp.portal, id: 'rows' });
    const after = await ids('rows');
    expect([after[0] === before[0], after[1] === before[1], after[2] === before[2]]).to.deep.equal([
      true,
      false,
      true,
    ]);
  });

  it('takes ids from --record-id, annotating the field `id`, and remembers it on re-ingest', async () => {
    const file = await fixture(temp.dir, 'codes.csv', 'code,name\nCDG,Paris\nLYS,Lyon\n');
    const report = await ingest({ file, portal: temp.portal, id: 'codes', recordId: 'code' });
    expect(report.recordIdField).to.equal('code');
    expect(await ids('codes')).to.deep.equal(['CDG', 'LYS']);
    const field = (await readDatasetFile(temp.portal, 'codes')).fields.find((f) => f.name === 'code')!;
    expect(field.annotations).to.deep.equal({ id: [] });
    await ingest({ file, portal: temp.portal, id: 'codes' });
    expect(await ids('codes')).to.deep.equal(['CDG', 'LYS']);
  });

  it('uses the text of a numeric id field', async () => {
    const file = await fixture(temp.dir, 'numbered.csv', 'n,v\n10,a\n7,b\n');
    await ingest({ file, portal: temp.portal, id: 'numbered', recordId: 'n' });
    expect(await ids('numbered')).to.deep.equal(['10', '7']);
  });

  it('refuses duplicate or empty ids and leaves the portal as it was', async () => {
    const good = await fixture(temp.dir, 'good.csv', 'code,name\nA,1\nB,2\n');
    await ingest({ file: good, portal: temp.portal, id: 'codes', recordId: 'code' });
    const before = await treeDigest(temp.portal);
    const dup = await fixture(temp.dir, 'dup.csv', 'code,name\nA,1\nB,2\nA,3\nC,4\n');
    await expectError(
      ingest({ file: dup, portal: temp.portal, id: 'codes', recordId: 'code' }),
      /--record-id: duplicate id "A" in field "code"/,
    );
    const empty = await fixture(temp.dir, 'empty.csv', 'code,name\nA,1\n,2\n');
    await expectError(
      ingest({ file: empty, portal: temp.portal, id: 'codes', recordId: 'code' }),
      /field "code" is empty on 1 records/,
    );
    expect(await treeDigest(temp.portal)).to.deep.equal(before);
  });

  it('refuses an unknown or multivalued id field', async () => {
    const file = await fixture(temp.dir, 'tags.csv', 'tags\na;b\n');
    await expectError(
      ingest({ file, portal: temp.portal, id: 'tags', recordId: 'nope' }),
      /--record-id: no field "nope" \(fields: tags\)/,
    );
    await expectError(
      ingest({ file, portal: temp.portal, id: 'tags', recordId: 'tags', multivalued: { tags: ';' } }),
      /field "tags" is multivalued/,
    );
  });
});
