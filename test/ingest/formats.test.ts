// Every input kind besides CSV: JSON array, JSON lines, Parquet with typed columns, and format detection.
import { expect } from 'chai';
import path from 'node:path';
import { ingest } from '../../src/ingest/ingest.js';
import { detectInputFormat } from '../../src/ingest/input-format.js';
import { quoteString } from '../../src/sql/quoting.js';
import { expectError } from './csv.test.js';
import {
  expectStorageMatchesSchema,
  fieldTypes,
  fixture,
  query,
  readDatasetFile,
  readRows,
  useTempPortal,
  VEGA_DATA,
} from './helpers.js';

describe('ingest: JSON, JSON lines, Parquet', () => {
  const temp = useTempPortal();

  it('reads a JSON array: nested objects become json_blob, string lists multivalued, string dates dates', async () => {
    const records = [
      {
        Title: 'Alpha',
        year: 1999,
        score: 1.5,
        tags: ['a', 'b'],
        meta: { k: 1 },
        released: '2001-02-03',
        ok: true,
      },
      {
        Title: 1776,
        year: 2000,
        score: 2,
        tags: [],
        meta: null,
        released: null,
        ok: false,
        extra: 'late key',
      },
    ];
    const file = await fixture(temp.dir, 'films.json', JSON.stringify(records));
    await ingest({ file, portal: temp.portal, id: 'films' });
    expect(await fieldTypes(temp.portal, 'films')).to.deep.equal({
      title: 'text',
      year: 'int',
      score: 'double',
      tags: 'text',
      meta: 'json_blob',
      released: 'date',
      ok: 'boolean',
      extra: 'text',
    });
    const dataset = await readDatasetFile(temp.portal, 'films');
    expect(dataset.fields.find((f) => f.name === 'tags')!.annotations).to.deep.equal({ multivalued: [';'] });
    const rows = await readRows(
      temp.portal,
      'films',
      'title, tags, meta, CAST(released AS VARCHAR) AS released, extra',
    );
    expect(rows).to.deep.equal([
      { title: 'Alpha', tags: ['a', 'b'], meta: '{"k":1}', released: '2001-02-03', extra: null },
      { title: '1776', tags: null, meta: null, released: null, extra: 'late key' },
    ]);
    await expectStorageMatchesSchema(temp.portal, 'films');
  });

  it('reads a mixed JSON column holding objects as json_blob', async () => {
    const file = await fixture(
      temp.dir,
      'mixed.json',
      JSON.stringify([{ v: 'text' }, { v: { a: [1, 2] } }, { v: 3 }]),
    );
    await ingest({ file, portal: temp.portal, id: 'mixed' });
    expect(await fieldTypes(temp.portal, 'mixed')).to.deep.equal({ v: 'json_blob' });
    expect(await readRows(temp.portal, 'mixed', 'v')).to.deep.equal([
      { v: '"text"' },
      { v: '{"a":[1,2]}' },
      { v: '3' },
    ]);
  });

  it('reads JSON lines (.jsonl and .ndjson), skipping blank lines', async () => {
    const lines =
      '{"a": 1, "when": "2020-01-01T10:00:00+01:00"}\n\n{"a": 2, "when": "2020-01-02T00:00:00Z"}\n';
    for (const name of ['events.jsonl', 'events.ndjson']) {
      const file = await fixture(temp.dir, name, lines);
      await ingest({ file, portal: temp.portal, id: 'events' });
      expect(await fieldTypes(temp.portal, 'events')).to.deep.equal({ a: 'int', when: 'datetime' });
      const rows = await readRows(temp.portal, 'events', 'a, strftime("when", \'%Y-%m-%dT%H:%M:%S\') AS w');
      expect(rows).to.deep.equal([
        { a: '1', w: '2020-01-01T09:00:00' },
        { a: '2', w: '2020-01-02T00:00:00' },
      ]);
    }
    await expectStorageMatchesSchema(temp.portal, 'events');
  });

  it('refuses a JSON record that is no object, naming its line and column', async () => {
    const array = await fixture(temp.dir, 'mixed.json', '[\n  {"a": 1},\n  {"a": [2, 3]},\n  3\n]\n');
    await expectError(
      ingest({ file: array, portal: temp.portal, id: 'bad' }),
      /mixed\.json: line 4, column 3: record 3 is a number, not a JSON object$/,
    );
    const lines = await fixture(temp.dir, 'mixed.jsonl', '{"a": 1}\n\n["a", 2]\n');
    await expectError(
      ingest({ file: lines, portal: temp.portal, id: 'bad' }),
      /mixed\.jsonl: line 3, column 1: an array, not a JSON object$/,
    );
  });

  it('refuses invalid JSON naming the file, the line and the column', async () => {
    const jsonl = await fixture(temp.dir, 'bad.jsonl', '{"a": 1}\n{"a": 2}\n{"a": oops}\n{"a": 4}\n');
    await expectError(
      ingest({ file: jsonl, portal: temp.portal, id: 'bad' }),
      /bad\.jsonl: line 3, column 7: invalid JSON \(unexpected character\)$/,
    );
    const array = await fixture(temp.dir, 'bad.json', '[{"a": 1}, {"a": 2,]');
    await expectError(
      ingest({ file: array, portal: temp.portal, id: 'bad' }),
      /bad\.json: line 1, column 20: invalid JSON \(a property name in double quotes expected\)$/,
    );
    // Pretty-printed, the problem (a missing colon) on line 7: DuckDB alone said "byte 17 in record 4".
    const pretty = JSON.stringify(
      [
        { a: 1, b: 'x' },
        { a: 2, b: 'y' },
      ],
      null,
      2,
    ).split('\n');
    pretty[7] = pretty[7]!.replace('"b":', '"b"');
    const multiLine = await fixture(temp.dir, 'pretty.json', `${pretty.join('\n')}\n`);
    await expectError(
      ingest({ file: multiLine, portal: temp.portal, id: 'bad' }),
      /pretty\.json: line 8, column 9: invalid JSON \(':' expected\)$/,
    );
    const geojson = await fixture(
      temp.dir,
      'bad.geojson',
      '{"type": "FeatureCollection",\n "features": [\n  {"type": "Feature" "geometry": null}\n ]}\n',
    );
    await expectError(
      ingest({ file: geojson, portal: temp.portal, id: 'bad' }),
      /bad\.geojson: line 3, column 22: invalid JSON \(',' expected\)$/,
    );
    const parquet = await fixture(temp.dir, 'broken.parquet', 'PAR1 but nothing else');
    await expectError(
      ingest({ file: parquet, portal: temp.portal, id: 'bad' }),
      /broken\.parquet: not a Parquet file$/,
    );
    const scalars = await fixture(temp.dir, 'scalars.json', '[1, 2, 3]');
    await expectError(
      ingest({ file: scalars, portal: temp.portal, id: 'bad' }),
      /scalars\.json: line 1, column 2: record 1 is a number, not a JSON object$/,
    );
  });

  it('maps typed Parquet columns to field types and keeps Parquet text as text', async () => {
    const file = path.join(temp.dir, 'typed.parquet');
    await query(`COPY (SELECT 1::TINYINT AS tiny, 2::INTEGER AS int32, 3::UBIGINT AS wide,
        1.5::FLOAT AS f, 2.25::DECIMAL(10, 2) AS dec, true AS b, DATE '2020-01-02' AS d,
        TIMESTAMP '2020-01-02 03:04:05' AS ts, TIMESTAMPTZ '2020-01-02 03:04:05+02' AS tstz,
        '2020-01-02 03:04:05'::TIMESTAMP_MS AS ts_ms, TIME '10:11:12' AS t, '00501' AS zip,
        ['x', 'y'] AS strings, [1, 2] AS ints, {'k': 'v'} AS obj, [{'k': 1}] AS objs, MAP {'a': 1} AS m,
        'red'::ENUM ('red', 'blue') AS colour, INTERVAL 3 DAY AS span, gen_random_uuid() IS NOT NULL AS has_uuid)
      TO ${quoteString(file)} (FORMAT parquet)`);
    await ingest({ file, portal: temp.portal, id: 'typed' });
    expect(await fieldTypes(temp.portal, 'typed')).to.deep.equal({
      tiny: 'int',
      int32: 'int',
      wide: 'int',
      f: 'double',
      dec: 'double',
      b: 'boolean',
      d: 'date',
      ts: 'datetime',
      tstz: 'datetime',
      ts_ms: 'datetime',
      t: 'text',
      zip: 'text',
      strings: 'text',
      ints: 'text',
      obj: 'json_blob',
      objs: 'json_blob',
      m: 'json_blob',
      colour: 'text',
      span: 'text',
      has_uuid: 'boolean',
    });
    const [row] = await readRows(
      temp.portal,
      'typed',
      `strftime(ts, '%Y-%m-%dT%H:%M:%S') AS ts, strftime(tstz, '%Y-%m-%dT%H:%M:%S') AS tstz, zip, strings, ints, obj, objs, dec`,
    );
    expect(row).to.deep.equal({
      ts: '2020-01-02T03:04:05',
      tstz: '2020-01-02T01:04:05',
      zip: '00501',
      strings: ['x', 'y'],
      ints: ['1', '2'],
      obj: '{"k":"v"}',
      objs: '[{"k":1}]',
      dec: 2.25,
    });
    await expectStorageMatchesSchema(temp.portal, 'typed');
  });

  it('detects the format from the extension, else from the content', async () => {
    const cases: [string, string | Buffer, string][] = [
      ['list', '[{"a":1}]', 'json'],
      ['lines', '{"a":1}\n{"a":2}\n', 'jsonl'],
      ['collection.json', '{"type": "FeatureCollection", "features": []}', 'geojson'],
      ['features-first', '{"features": [], "type": "FeatureCollection"}', 'geojson'],
      ['nested-type.json', '{"a": {"type": "FeatureCollection"}}\n', 'jsonl'],
      ['table', 'a,b\n1,2\n', 'csv'],
      ['garbage.json', 'not json', 'json'],
    ];
    for (const [name, content, format] of cases) {
      expect(await detectInputFormat(await fixture(temp.dir, name, content)), name).to.equal(format);
    }
    expect(await detectInputFormat(path.join(VEGA_DATA, 'flights-3m.parquet'))).to.equal('parquet');
    const copy = await fixture(temp.dir, 'no-extension', '');
    await query(`COPY (SELECT 1 AS a) TO ${quoteString(copy)} (FORMAT parquet)`);
    expect(await detectInputFormat(copy)).to.equal('parquet');
  });

  it('ingests the vega movies.json with its mixed title column and month-name dates', async () => {
    await ingest({ file: path.join(VEGA_DATA, 'movies.json'), portal: temp.portal, id: 'movies' });
    const types = await fieldTypes(temp.portal, 'movies');
    expect(types).to.include({ title: 'text', us_gross: 'int', release_date: 'date', imdb_rating: 'double' });
    const rows = await readRows(temp.portal, 'movies', 'title, CAST(release_date AS VARCHAR) AS d');
    expect(rows).to.deep.include({ title: '1776', d: '1972-11-09' });
  });
});
