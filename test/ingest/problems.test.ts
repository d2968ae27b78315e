// The problems an ingest reports instead of hiding: misfit cells, points off the globe, ambiguous dates; --strict.
import { expect } from 'chai';
import { readdir } from 'node:fs/promises';
import { ingest } from '../../src/ingest/ingest.js';
import { startTestServer } from '../helpers/server.js';
import { expectError } from './csv.test.js';
import {
  expectStorageMatchesSchema,
  fieldTypes,
  fixture,
  ingestCommand,
  readRows,
  treeDigest,
  useTempPortal,
} from './helpers.js';

/**
 * 200 places: record 7 is off the globe (latitude 95), record 9's latitude is a word, records
 * 50 and 120 have words for a count, and every date reads both day-first and month-first.
 */
function placesCsv(): string {
  const rows = Array.from({ length: 200 }, (_, k) => {
    const record = k + 1;
    const lat = record === 7 ? '95' : record === 9 ? 'north' : (45 + record / 1000).toFixed(3);
    const count = record === 50 ? 'unknown' : record === 120 ? 'n.d.' : String(record);
    return `p${record},${lat},2.5,${count},0${(record % 9) + 1}/0${(record % 7) + 1}/2020`;
  });
  return `name,lat,lon,count,seen\n${rows.join('\n')}\n`;
}

const SUMMARY = [
  'lat: 1 value not a double, stored as null: "north" (line 10)',
  'count: 2 values not an int, stored as null: "unknown" (line 51), "n.d." (line 121)',
  'geo_point_2d: 2 records without a point (latitude, longitude off the globe or not numbers): "95, 2.5" (line 8), "north, 2.5" (line 10)',
  'seen: kept as text: every date reads as dd/mm/yyyy and as mm/dd/yyyy',
];

describe('ingest: problems', () => {
  const temp = useTempPortal();

  it('keeps each record, nulls only its bad value or point, and reports every problem with examples', async () => {
    const file = await fixture(temp.dir, 'places.csv', placesCsv());
    const lines: string[] = [];
    const report = await ingest({
      file,
      portal: temp.portal,
      id: 'places',
      progress: (line) => lines.push(line),
    });
    expect(report.summary).to.deep.equal(SUMMARY);
    expect(lines.slice(-5)).to.deep.equal([
      lines.at(-5)!.replace(/ in .*/, '') + lines.at(-5)!.slice(lines.at(-5)!.indexOf(' in ')),
      ...SUMMARY.map((line) => `places: ${line}`),
    ]);
    expect(lines.at(-5)).to.match(/^places: 200 records in [\d.]+ s; 4 problems:$/);
    expect(report.problems.fields.map((p) => [p.field, p.kind, p.count])).to.deep.equal([
      ['lat', 'misfit', 1],
      ['count', 'misfit', 2],
      ['geo_point_2d', 'point', 2],
    ]);
    expect(await fieldTypes(temp.portal, 'places')).to.deep.equal({
      name: 'text',
      lat: 'double',
      lon: 'double',
      count: 'int',
      seen: 'text',
      geo_point_2d: 'geo_point_2d',
    });
    const rows = await readRows(temp.portal, 'places', 'name, lat, count, seen, geo_point_2d');
    expect(rows).to.have.length(200);
    expect(rows[6]).to.deep.equal({
      name: 'p7',
      lat: 95,
      count: '7',
      seen: '08/01/2020',
      geo_point_2d: null,
    });
    expect(rows[8]).to.deep.equal({
      name: 'p9',
      lat: null,
      count: '9',
      seen: '01/03/2020',
      geo_point_2d: null,
    });
    expect(rows[49]).to.include({ name: 'p50', count: null });
    expect(rows[0]).to.deep.equal({
      name: 'p1',
      lat: 45.001,
      count: '1',
      seen: '02/02/2020',
      geo_point_2d: { lon: 2.5, lat: 45.001 },
    });
    await expectStorageMatchesSchema(temp.portal, 'places');
  });

  it('through the API: the stored types, a record without its point, a count stored as null', async () => {
    await ingest({
      file: await fixture(temp.dir, 'places.csv', placesCsv()),
      portal: temp.portal,
      id: 'places',
    });
    const server = await startTestServer(temp.portal);
    try {
      const dataset = await server.json('/api/explore/v2.1/catalog/datasets/places');
      const fields = (dataset.body.fields as { name: string; type: string }[]).map(
        (f) => `${f.name}:${f.type}`,
      );
      expect(fields).to.deep.equal([
        'name:text',
        'lat:double',
        'lon:double',
        'count:int',
        'seen:text',
        'geo_point_2d:geo_point_2d',
      ]);
      const where = encodeURIComponent('name in ("p1", "p7", "p9", "p50")');
      const records = await server.json(`/api/explore/v2.1/catalog/datasets/places/records?where=${where}`);
      expect(records.body.results).to.deep.equal([
        {
          name: 'p1',
          lat: 45.001,
          lon: 2.5,
          count: 1,
          seen: '02/02/2020',
          geo_point_2d: { lon: 2.5, lat: 45.001 },
        },
        { name: 'p7', lat: 95, lon: 2.5, count: 7, seen: '08/01/2020', geo_point_2d: null },
        { name: 'p9', lat: null, lon: 2.5, count: 9, seen: '01/03/2020', geo_point_2d: null },
        {
          name: 'p50',
          lat: 45.05,
          lon: 2.5,
          count: null,
          seen: '06/02/2020',
          geo_point_2d: { lon: 2.5, lat: 45.05 },
        },
      ]);
      const nulls = await server.json(
        `/api/explore/v2.1/catalog/datasets/places/records?select=${encodeURIComponent('count(*) as n')}&where=${encodeURIComponent('`count` is null')}`,
      );
      expect(nulls.body.results, JSON.stringify(nulls.body)).to.deep.equal([{ n: 2 }]);
    } finally {
      await server.close();
    }
  });

  it('names records, not lines, when a value spans lines, and reports nothing for clean data', async () => {
    const rows = Array.from({ length: 150 }, (_, k) => (k === 3 ? '"many\nlines",x' : `a,${k}`));
    const file = await fixture(temp.dir, 'spans.csv', `note,n\n${rows.join('\n')}\n`);
    const report = await ingest({ file, portal: temp.portal, id: 'spans' });
    expect(report.summary).to.deep.equal(['n: 1 value not an int, stored as null: "x" (record 4)']);
    const clean = await fixture(temp.dir, 'clean.csv', 'a,lat,lon\n1,45,2\n');
    const cleanReport = await ingest({ file: clean, portal: temp.portal, id: 'clean' });
    expect(cleanReport.summary).to.deep.equal([]);
    expect(cleanReport.problems).to.deep.equal({ fields: [], ambiguousDates: [] });
  });

  it('--strict: any problem fails the ingest and leaves the portal as it was, or absent', async () => {
    const file = await fixture(temp.dir, 'places.csv', placesCsv());
    await expectError(
      ingest({ file, portal: temp.portal, id: 'places', strict: true }),
      /places\.csv: --strict: not every value can be stored as written; nothing was written\nlat: 1 value/,
    );
    expect(await readdir(temp.dir)).to.deep.equal(['places.csv']);
    await ingest({ file, portal: temp.portal, id: 'places' });
    const before = await treeDigest(temp.portal);
    await expectError(ingest({ file, portal: temp.portal, id: 'places', strict: true }), /--strict/);
    await expectError(ingest({ file, portal: temp.portal, id: 'other', strict: true }), /--strict/);
    expect(await treeDigest(temp.portal)).to.deep.equal(before);
    const clean = await fixture(temp.dir, 'clean.csv', 'a\n1\n');
    expect(
      (await ingest({ file: clean, portal: temp.portal, id: 'clean', strict: true })).recordsCount,
    ).to.equal(1);
  });

  it('through the CLI: the summary on stderr, --strict exits 1, --quiet prints no summary', async () => {
    const file = await fixture(temp.dir, 'places.csv', placesCsv());
    const { stderr } = await ingestCommand(file, temp.portal, 'places');
    expect(stderr.trimEnd().split('\n').slice(-4)).to.deep.equal(SUMMARY.map((line) => `places: ${line}`));
    const quiet = await ingestCommand(file, temp.portal, 'places', '--replace', '--quiet');
    expect(quiet.stderr).to.equal('');
    const strict = await ingestCommand(file, temp.portal, 'places', '--replace', '--strict', '--quiet').catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(strict).to.include({ code: 1 });
    expect((strict as { stderr: string }).stderr).to.match(
      /^duckportal: .*places\.csv: --strict: .*\nlat: 1 value/,
    );
  });
});
