// A small dataset with nulls, quotes, line breaks, markup characters and Unicode, exported in
// every format and read back by a real reader; plus the catalog exports over the fixture portal.
import { expect } from 'chai';
import { rm } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';
import ExcelJS from 'exceljs';
import { CATALOG_RDF_FORMATS } from '../../src/exports/registry.js';
import { startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';
import { ogrFeatures, ogrSummary, rapperNTriples, rapperTriples, saved, tempFolder } from './readers.js';
import { addTricky, LINES, MARKUP, QUOTED, UNICODE } from './tricky-fixture.js';

const EXPORTS = '/api/explore/v2.1/catalog/datasets/tricky/exports';

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
