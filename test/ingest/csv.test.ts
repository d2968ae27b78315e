// CSV and TSV sources, hostile ones included: quoting, BOM, encodings, ragged rows, empty files.
import { expect } from 'chai';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ingest } from '../../src/ingest/ingest.js';
import {
  expectStorageMatchesSchema,
  fieldTypes,
  fixture,
  readDatasetFile,
  readRows,
  useTempPortal,
} from './helpers.js';

describe('ingest: CSV', () => {
  const temp = useTempPortal();

  it('reads embedded newlines, doubled quotes and a BOM, keeping headers as labels', async () => {
    const csv = '\uFEFFName,"Said ""hi""",Count\r\n"Ada\nLovelace","she said ""hello""",3\r\nBob,,4\r\n';
    const file = await fixture(temp.dir, 'people.csv', csv);
    const report = await ingest({ file, portal: temp.portal, id: 'people' });
    expect(report.recordsCount).to.equal(2);
    const dataset = await readDatasetFile(temp.portal, 'people');
    expect(dataset.fields.map((f) => [f.name, f.label, f.type])).to.deep.equal([
      ['name', 'Name', 'text'],
      ['said_hi', 'Said "hi"', 'text'],
      ['count', 'Count', 'int'],
    ]);
    const rows = await readRows(temp.portal, 'people', 'name, said_hi, count');
    expect(rows).to.deep.equal([
      { name: 'Ada\nLovelace', said_hi: 'she said "hello"', count: '3' },
      { name: 'Bob', said_hi: null, count: '4' },
    ]);
    await expectStorageMatchesSchema(temp.portal, 'people');
  });

  it('keeps a mixed column as text, types clean ones, and makes an all-empty column text', async () => {
    const csv = 'mixed,num,empty,flag,day\n1,1.5,,true,2020-01-02\nabc,2,,False,2020-03-04\n';
    const file = await fixture(temp.dir, 'mixed.csv', csv);
    await ingest({ file, portal: temp.portal, id: 'mixed' });
    expect(await fieldTypes(temp.portal, 'mixed')).to.deep.equal({
      mixed: 'text',
      num: 'double',
      empty: 'text',
      flag: 'boolean',
      day: 'date',
    });
    const rows = await readRows(temp.portal, 'mixed', 'mixed, empty, flag, CAST(day AS VARCHAR) AS day');
    expect(rows).to.deep.equal([
      { mixed: '1', empty: null, flag: true, day: '2020-01-02' },
      { mixed: 'abc', empty: null, flag: false, day: '2020-03-04' },
    ]);
    await expectStorageMatchesSchema(temp.portal, 'mixed');
  });

  it('transcodes Latin-1 / windows-1252 bytes so accented values arrive intact', async () => {
    const bytes = Buffer.concat([
      Buffer.from('ville,prix\n', 'latin1'),
      Buffer.from('Montr\xe9al,3\n', 'latin1'),
      Buffer.from([0x4e, 0xee, 0x6d, 0x65, 0x73, 0x2c, 0x80, 0x0a]), // "Nîmes,€" in windows-1252
    ]);
    const file = await fixture(temp.dir, 'latin1.csv', bytes);
    const report = await ingest({ file, portal: temp.portal, id: 'latin1' });
    expect(report.encoding).to.equal('windows-1252');
    expect(await readRows(temp.portal, 'latin1', 'ville, prix')).to.deep.equal([
      { ville: 'Montréal', prix: '3' },
      { ville: 'Nîmes', prix: '€' },
    ]);
  });

  it('reads UTF-16 with a BOM', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a,b\nÉté,2\n', 'utf16le')]);
    const file = await fixture(temp.dir, 'utf16.csv', utf16);
    const report = await ingest({ file, portal: temp.portal, id: 'utf16' });
    expect(report.encoding).to.equal('utf-16le');
    expect(await readRows(temp.portal, 'utf16', 'a, b')).to.deep.equal([{ a: 'Été', b: '2' }]);
  });

  it('detects ; as the delimiter and reads TSV by extension', async () => {
    const semi = await fixture(temp.dir, 'semi.csv', 'a;b;c\n1;x, y;3\n');
    await ingest({ file: semi, portal: temp.portal, id: 'semi' });
    expect(await readRows(temp.portal, 'semi', 'a, b, c')).to.deep.equal([{ a: '1', b: 'x, y', c: '3' }]);
    const tsv = await fixture(temp.dir, 'tab.tsv', 'a\tb\n1,5\tx\n');
    await ingest({ file: tsv, portal: temp.portal, id: 'tab' });
    expect(await readRows(temp.portal, 'tab', 'a, b')).to.deep.equal([{ a: 1.5, b: 'x' }]);
  });

  it('reads a European file: ; delimiter, Latin-1, decimal commas, grouped thousands, NA and -', async () => {
    const csv = [
      'commune;surface;habitants;m\xe9diane;relev\xe9',
      'N\xeemes;161,85;148\xa0561;21,5;01/03/2020',
      'S\xe8te;24,21;NA;-;NA',
      'Lun\xe9l;24,8;26\xa0599;19;15/12/2021',
      '',
    ].join('\n');
    const file = await fixture(temp.dir, 'communes.csv', Buffer.from(csv, 'latin1'));
    const report = await ingest({ file, portal: temp.portal, id: 'communes' });
    expect(report.encoding).to.equal('windows-1252');
    expect(await fieldTypes(temp.portal, 'communes')).to.deep.equal({
      commune: 'text',
      surface: 'double',
      habitants: 'int',
      mediane: 'double',
      releve: 'date',
    });
    expect(
      await readRows(temp.portal, 'communes', 'commune, surface, habitants, mediane, releve'),
    ).to.deep.equal([
      {
        commune: 'N\u00eemes',
        surface: 161.85,
        habitants: '148561',
        mediane: 21.5,
        releve: '2020-03-01',
      },
      { commune: 'S\u00e8te', surface: 24.21, habitants: null, mediane: null, releve: null },
      { commune: 'Lun\u00e9l', surface: 24.8, habitants: '26599', mediane: 19, releve: '2021-12-15' },
    ]);
  });

  it('reads US grouped thousands in a comma file, and --null tokens of its own', async () => {
    const csv = 'city,population,score\nBoston,"675,647",n.d.\nSalem,"44,480",7.5\n';
    const file = await fixture(temp.dir, 'cities.csv', csv);
    await ingest({ file, portal: temp.portal, id: 'cities', nullTokens: ['n.d.'] });
    expect(await fieldTypes(temp.portal, 'cities')).to.deep.equal({
      city: 'text',
      population: 'int',
      score: 'double',
    });
    expect(await readRows(temp.portal, 'cities', 'population, score')).to.deep.equal([
      { population: '675647', score: null },
      { population: '44480', score: 7.5 },
    ]);
  });

  it('names duplicate and empty headers uniquely', async () => {
    const file = await fixture(temp.dir, 'dups.csv', 'a,A,,2020,"two\n  lines"\n1,2,3,4,5\n');
    await ingest({ file, portal: temp.portal, id: 'dups' });
    const dataset = await readDatasetFile(temp.portal, 'dups');
    expect(dataset.fields.map((f) => [f.name, f.label])).to.deep.equal([
      ['a', 'a'],
      ['a_2', 'A'],
      ['field', ''],
      ['field_2020', '2020'],
      ['two_lines', 'two lines'],
    ]);
  });

  it('refuses a 0-byte file, a blank one and a missing one, naming them', async () => {
    const empty = await fixture(temp.dir, 'empty.csv', '');
    await expectError(
      ingest({ file: empty, portal: temp.portal, id: 'x' }),
      /empty\.csv: the file is empty \(0 bytes\)/,
    );
    const blank = await fixture(temp.dir, 'blank.csv', Buffer.from([0xef, 0xbb, 0xbf, 0x0a, 0x0a]));
    await expectError(ingest({ file: blank, portal: temp.portal, id: 'x' }), /blank\.csv: no header line/);
    const latin = await fixture(temp.dir, 'latin-blank.csv', Buffer.from([0xa0, 0x0a]));
    await expectError(
      ingest({ file: latin, portal: temp.portal, id: 'x' }),
      /^[^ ]*latin-blank\.csv: no header line/,
    );
    await expectError(
      ingest({ file: path.join(temp.dir, 'nope.csv'), portal: temp.portal, id: 'x' }),
      /nope\.csv: no such file/,
    );
  });

  it('refuses ragged rows and unclosed quotes with the file and line, leaving no dataset', async () => {
    const ragged = await fixture(temp.dir, 'ragged.csv', 'a,b,c\n1,2,3\n4,5\n6,7,8\n');
    await expectError(
      ingest({ file: ragged, portal: temp.portal, id: 'ragged' }),
      /^.*ragged\.csv: line 3: 2 columns where the header has 3$/,
    );
    const wide = await fixture(temp.dir, 'wide.csv', 'a,b\n1,2\n3,4,5\n');
    await expectError(
      ingest({ file: wide, portal: temp.portal, id: 'ragged' }),
      /wide\.csv: line 3: 3 columns where the header has 2$/,
    );
    const open = await fixture(temp.dir, 'open.csv', 'a,b\n1,"never closed\n2,3\n');
    await expectError(
      ingest({ file: open, portal: temp.portal, id: 'ragged' }),
      /open\.csv: line 2: a quoted value is never closed$/,
    );
    expect(await readdir(temp.dir)).to.deep.equal(['open.csv', 'ragged.csv', 'wide.csv']);
  });
});

/** Asserts that `promise` rejects with a message matching `pattern` and no DuckDB report. */
export async function expectError(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, 'expected a rejection').to.be.instanceOf(Error);
  const message = (error as Error).message;
  expect(message).to.match(pattern);
  expect(message).not.to.match(/Invalid Input Error|Possible fixes|LINE 1:/);
}
