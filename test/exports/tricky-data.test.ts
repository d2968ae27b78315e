// A small dataset with nulls, quotes, line breaks, markup characters and Unicode, exported in
// every format and read back by a real reader; plus the catalog exports over the fixture portal.
import { expect } from 'chai';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';
import ExcelJS from 'exceljs';
import { CATALOG_RDF_FORMATS } from '../../src/exports/catalog-exports.js';
import { startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';
import { ogrFeatures, ogrSummary, rapperNTriples, rapperTriples, saved, tempFolder } from './readers.js';

const EXPORTS = '/api/explore/v2.1/catalog/datasets/tricky/exports';
const QUOTED = 'He said "hi"; ok, fine';
const LINES = 'line one\nline two';
const UNICODE = 'Zürich — 東京 ✈';
const MARKUP = '<a href="x">&amp;</a>';

/** Adds the `tricky` dataset (5 rows, one without any value) to a fixture portal. */
async function addTricky(dir: string): Promise<void> {
  const folder = path.join(dir, 'datasets', 'tricky');
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const text = (s: string) => `'${s.replaceAll("'", "''")}'`;
  await connection.run(`CREATE TABLE t AS SELECT * FROM (VALUES
    ('r1', ${text(QUOTED)}, 1, 1.5, true, DATE '2024-01-31', TIMESTAMPTZ '2024-01-31 12:00:00+00', ['a', 'b'], {'lon': 2.35, 'lat': 48.85}, '{"type":"Polygon","coordinates":[[[2,48],[3,48],[3,49],[2,49],[2,48]]]}'),
    ('r2', ${text(LINES)}, -2, NULL, false, NULL, NULL, [], {'lon': -0.5, 'lat': 44.8}, '{"type":"Polygon","coordinates":[[[0,44],[1,44],[1,45],[0,45],[0,44]]]}'),
    ('r3', ${text(UNICODE)}, NULL, -0.25, NULL, DATE '1999-12-31', NULL, ['ü'], {'lon': 139.7, 'lat': 35.7}, '{"type":"Polygon","coordinates":[[[139,35],[140,35],[140,36],[139,36],[139,35]]]}'),
    ('r4', ${text(MARKUP)}, 4, 4.0, true, NULL, NULL, NULL, {'lon': 4.83, 'lat': 45.76}, '{"type":"Polygon","coordinates":[[[4,45],[5,45],[5,46],[4,46],[4,45]]]}'),
    ('r5', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
  ) v(_recordid, label, n, x, flag, day, seen_at, tags, geo_point_2d, area)`);
  await (await import('node:fs/promises')).mkdir(folder, { recursive: true });
  await connection.run(`COPY t TO '${path.join(folder, 'data.parquet')}' (FORMAT parquet)`);
  connection.closeSync();
  instance.closeSync();
  const towns = JSON.parse(await readFile(path.join(dir, 'datasets', 'towns', 'dataset.json'), 'utf8'));
  const field = (name: string, type: string, annotations: Record<string, string[]> = {}) => ({
    name,
    label: name.toUpperCase(),
    type,
    description: null,
    annotations,
  });
  const file = {
    ...towns,
    dataset_uid: 'da_tricky',
    metas: { ...towns.metas, default: { ...towns.metas.default, title: 'Tricky' } },
    fields: [
      field('label', 'text'),
      field('n', 'int'),
      field('x', 'double'),
      field('flag', 'boolean'),
      field('day', 'date'),
      field('seen_at', 'datetime'),
      field('tags', 'text', { multivalued: [','] }),
      field('geo_point_2d', 'geo_point_2d'),
      field('area', 'geo_shape'),
    ],
    computed: { ...towns.computed, records_count: 5 },
  };
  await writeFile(path.join(folder, 'dataset.json'), JSON.stringify(file));
}

describe('exports of nulls, quotes, line breaks and Unicode, in every format', () => {
  let server: TestServer;
  let dir: string;
  before(async () => {
    server = await startFixtureServer(addTricky);
    dir = await tempFolder();
  });
  after(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const download = async (format: string, name: string, params: Record<string, string> = {}) => {
    const response = await server.get(`${EXPORTS}/${format}?${new URLSearchParams(params)}`);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.status, bytes.subarray(0, 300).toString()).to.equal(200);
    return { bytes, file: await saved(dir, name, bytes) };
  };

  /** Reads a file with a plain DuckDB and returns the label column in row order. */
  const duckLabels = async (sql: string): Promise<unknown[]> => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const rows = (await connection.runAndReadAll(sql)).getRowObjectsJson();
    connection.closeSync();
    instance.closeSync();
    return rows.map((r) => r.label ?? r.LABEL ?? null);
  };
  const expected = [QUOTED, LINES, UNICODE, MARKUP, null];

  it('csv, json, jsonl, parquet: DuckDB reads back every value', async () => {
    const csv = await download('csv', 'tricky.csv', { quote_all: 'true' });
    expect(
      await duckLabels(`SELECT label FROM read_csv('${csv.file}', delim=';', header=true, quote='"')`),
    ).to.deep.equal(expected);
    for (const format of ['json', 'jsonl', 'parquet']) {
      const { file } = await download(format, `tricky.${format}`);
      const reader = format === 'parquet' ? `'${file}'` : `read_json('${file}')`;
      expect(await duckLabels(`SELECT label FROM ${reader}`), format).to.deep.equal(expected);
    }
  });

  it('geojson, kml, fgb, shp: GDAL reads the shapes and the texts', async () => {
    for (const [format, name, count] of [
      ['geojson', 'tricky.geojson', 5],
      ['kml', 'tricky.kml', 5],
      // FlatGeobuf features need a geometry: the row without one is left out.
      ['fgb', 'tricky.fgb', 4],
      ['shp', 'tricky.zip', 5],
    ] as const) {
      const { file } = await download(format, name);
      const source = format === 'shp' ? `/vsizip/${file}/tricky.shp` : file;
      expect((await ogrSummary(source)).count, format).to.equal(count);
      const tokyo = await ogrFeatures(source, format === 'kml' ? "LABEL LIKE 'Z%'" : "label LIKE 'Z%'");
      expect(tokyo, format).to.include(UNICODE);
      expect(tokyo, format).to.match(/POLYGON \(\(139 35,/);
    }
  });

  it('gpx: one track per shape, texts escaped', async () => {
    const { file } = await download('gpx', 'tricky.gpx', { name_field: 'label' });
    expect((await ogrSummary(file, 'tracks')).count).to.equal(4);
    const markup = await ogrFeatures(file, `name = '${MARKUP}'`, 'tracks');
    expect(markup).to.include('MULTILINESTRING ((4 45,5 45,5 46,4 46,4 45))');
  });

  it('turtle, n3, rdfxml: rapper parses them and finds the escaped literals', async () => {
    for (const [format, syntax] of [
      ['turtle', 'turtle'],
      ['n3', 'turtle'],
      ['rdfxml', 'rdfxml'],
    ] as const) {
      const { file } = await download(format, `tricky.${format}`);
      expect(await rapperTriples(file, syntax), format).to.be.greaterThan(20);
      const triples = await rapperNTriples(file, syntax);
      expect(triples, format).to.include('"line one\\nline two"');
      expect(triples, format).to.include('"He said \\"hi\\"; ok, fine"');
      expect(triples, format).to.include('"2024-01-31"^^<http://www.w3.org/2001/XMLSchema#date>');
    }
  });

  it('jsonld, arrow, xlsx: values intact, nulls null', async () => {
    const jsonld = JSON.parse((await download('jsonld', 'tricky.jsonld')).bytes.toString('utf8'));
    expect(jsonld['@graph'].map((r: { label: string | null }) => r.label)).to.deep.equal(expected);
    const arrow = tableFromIPC((await download('arrow', 'tricky.arrow')).bytes);
    const values = (name: string) => [...arrow.getChild(name)!].map((v) => v ?? null);
    expect(values('label')).to.deep.equal(expected);
    expect(arrow.schema.fields.map((f) => `${f.name}: ${String(f.type)}`)).to.deep.equal([
      'label: Utf8',
      'n: Int64',
      'x: Float64',
      'flag: Bool',
      'day: Date32<DAY>',
      'seen_at: Timestamp<MICROSECOND, UTC>',
      'tags: List<Utf8>',
      'geo_point_2d: Utf8',
      'area: Utf8',
    ]);
    expect(values('n')).to.deep.equal([1n, -2n, null, 4n, null]);
    // Under a null, zeros: never what DuckDB's memory held there.
    expect([...arrow.getChild('n')!.data[0]!.values]).to.deep.equal([1n, -2n, 0n, 4n, 0n]);
    expect([...arrow.getChild('x')!.data[0]!.values]).to.deep.equal([1.5, 0, -0.25, 4, 0]);
    expect(values('x')).to.deep.equal([1.5, null, -0.25, 4, null]);
    expect(values('flag')).to.deep.equal([true, false, null, true, null]);
    expect(values('day')).to.deep.equal([Date.UTC(2024, 0, 31), null, Date.UTC(1999, 11, 31), null, null]);
    expect(values('seen_at')).to.deep.equal([Date.UTC(2024, 0, 31, 12), null, null, null, null]);
    expect(
      values('tags').map((list) => (list === null ? null : [...(list as Iterable<string>)])),
    ).to.deep.equal([['a', 'b'], [], ['ü'], null, null]);
    expect(values('geo_point_2d')).to.deep.equal([
      '48.85, 2.35',
      '44.8, -0.5',
      '35.7, 139.7',
      '45.76, 4.83',
      null,
    ]);
    const { file } = await download('xlsx', 'tricky.xlsx', { use_labels: 'true' });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).to.equal('LABEL');
    expect([2, 3, 4, 5, 6].map((r) => sheet.getRow(r).getCell(1).value ?? null)).to.deep.equal(expected);
    expect(sheet.getRow(3).getCell(2).value).to.equal(-2);
    expect(sheet.getRow(2).getCell(4).value).to.equal(true);
  });

  it('ov2: one record per located row', async () => {
    const { bytes } = await download('ov2', 'tricky.ov2', { name_field: 'label' });
    const names: string[] = [];
    for (let at = 0; at < bytes.length; at += bytes.readInt32LE(at + 1)) {
      names.push(bytes.toString('utf8', at + 13, bytes.indexOf(0, at + 13)));
    }
    expect(names).to.deep.equal([QUOTED, LINES, UNICODE, MARKUP]);
  });

  describe('catalog exports', () => {
    const CATALOG = '/api/explore/v2.1/catalog/exports';

    it('csv and json list the datasets, filtered with where', async () => {
      const all = await server.get(`${CATALOG}/json`);
      const datasets = (await all.json()) as { dataset_id: string }[];
      expect(datasets.map((d) => d.dataset_id).sort()).to.deep.equal(['towns', 'tricky', 'words']);
      const csv = await server.get(
        `${CATALOG}/csv?where=${encodeURIComponent("dataset_id = 'towns'")}&with_bom=false`,
      );
      const lines = (await csv.text()).trim().split('\n');
      expect(lines).to.have.length(2);
      expect(lines[0]!.split(';')[0]).to.equal('dataset_id');
    });

    const documents = [...Object.keys(CATALOG_RDF_FORMATS).filter((f) => f !== 'rss'), 'dcat-ap-de'];
    for (const format of documents) {
      it(`${format}: rapper parses the DCAT document`, async () => {
        const response = await server.get(`${CATALOG}/${format}?include_exports=csv,geojson`);
        expect(response.status).to.equal(200);
        const file = await saved(dir, `catalog-${format}`, Buffer.from(await response.arrayBuffer()));
        const triples = await rapperNTriples(file, format === 'ttl' ? 'turtle' : 'rdfxml');
        expect(triples).to.include('<http://www.w3.org/ns/dcat#Dataset>');
        // towns has a geo field: csv and geojson; words has none: csv only.
        expect(triples).to.match(
          /datasets\/towns\/exports\/geojson> <http:\/\/www.w3.org\/1999\/02\/22-rdf-syntax-ns#type>/,
        );
        expect(triples).not.to.include('datasets/words/exports/geojson>');
        expect(triples).not.to.include('/exports/parquet>');
        const profile = CATALOG_RDF_FORMATS[format.replaceAll('-', '_')]!.profile;
        const conforms = `<http://purl.org/dc/terms/conformsTo> <${profile}>`;
        if (profile) expect(triples).to.include(conforms);
        else expect(triples).not.to.include('<http://purl.org/dc/terms/conformsTo>');
      });
    }

    /** The values of dcat_ap_format (explore-api.md, export-specific parameters). */
    const DCAT_AP_FORMATS = ['_ap_ch', '_ap_de', '_ap_se', '_ap_sp', '_ap_it', '_ap_vl', '_ap_benap'];

    it('dcat with dcat_ap_format answers the bytes of the dcat_ap_* path format it names', async () => {
      for (const profile of DCAT_AP_FORMATS) {
        const query = `include_exports=csv&where=${encodeURIComponent("dataset_id != 'words'")}`;
        const viaParameter = await server.get(`${CATALOG}/dcat?dcat_ap_format=${profile}&${query}`);
        const viaPath = await server.get(`${CATALOG}/dcat${profile}?${query}`);
        expect([profile, viaParameter.status]).to.deep.equal([profile, 200]);
        expect(viaParameter.headers.get('content-type')).to.equal(viaPath.headers.get('content-type'));
        const bytes = Buffer.from(await viaParameter.arrayBuffer());
        expect(bytes.equals(Buffer.from(await viaPath.arrayBuffer()))).to.equal(true);
        expect(bytes.toString()).to.include(CATALOG_RDF_FORMATS[`dcat${profile}`]!.profile);
      }
    });

    it('dcat without dcat_ap_format, or with an unknown one, is a 400 naming it and its values', async () => {
      for (const query of ['', '?dcat_ap_format=_ap_fr', '?dcat_ap_format=ch']) {
        const { status, body } = await server.json(`${CATALOG}/dcat${query}`);
        expect([query, status, body.error_code]).to.deep.equal([query, 400, 'InvalidRESTParameterError']);
        expect(body.message).to.include('dcat_ap_format');
        for (const value of DCAT_AP_FORMATS) expect(body.message).to.include(value);
      }
    });

    it('dcat applies the catalog filter: only the datasets matching where are described', async () => {
      const where = encodeURIComponent("dataset_id = 'words'");
      const response = await server.get(`${CATALOG}/dcat?dcat_ap_format=_ap_it&where=${where}`);
      const file = await saved(dir, 'catalog-filtered', Buffer.from(await response.arrayBuffer()));
      const triples = await rapperNTriples(file, 'rdfxml');
      const datasets = triples.match(/ <http:\/\/www.w3.org\/ns\/dcat#Dataset> \./g) ?? [];
      expect(datasets).to.have.length(1);
      expect(triples).to.include('datasets/words');
      expect(triples).not.to.include('datasets/towns');
    });

    it('jsonl and xlsx list one dataset per line or row', async () => {
      const lines = (await (await server.get(`${CATALOG}/jsonl`)).text()).trim().split('\n');
      expect(lines.map((l) => (JSON.parse(l) as { dataset_id: string }).dataset_id).sort()).to.deep.equal([
        'towns',
        'tricky',
        'words',
      ]);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(await (await server.get(`${CATALOG}/xlsx`)).arrayBuffer());
      const sheet = workbook.worksheets[0]!;
      expect(sheet.getRow(1).getCell(1).value).to.equal('dataset_id');
      expect(sheet.rowCount).to.equal(4);
    });

    it('rss: one item per dataset matching the filter', async () => {
      const response = await server.get(
        `${CATALOG}/rss?where=${encodeURIComponent("dataset_id != 'words'")}`,
      );
      const text = await response.text();
      expect(response.headers.get('content-type')).to.include('application/rss+xml');
      expect(text.match(/<item>/g)).to.have.length(2);
      expect(text).to.include('<channel><title>Fixture portal</title>');
      expect(text).to.include('<title>Towns</title>');
    });

    it('refuses an unknown catalog format', async () => {
      expect((await server.json(`${CATALOG}/shp`)).status).to.equal(400);
    });
  });
});
