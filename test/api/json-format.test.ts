// json_format() and json_blob fields (issue 30 item 7) on a small fixture dataset: exports other
// than JSON give the stored text as it is, text that is not valid JSON stays text everywhere, and
// json_format() on a multivalued field is refused with that cause.
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { addFixtureDataset, startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';

const V21 = '/api/explore/v2.1/catalog/datasets/blobs';
const DOC = '{"a": [1, 2],  "b": "x"}';
const BROKEN = 'not json {';
const PLAIN = 'He said "hi"';

/** doc (json_blob): valid JSON, invalid JSON, a JSON string, null; note (text); tags (multivalued). */
const addBlobs = (dir: string) =>
  addFixtureDataset(
    dir,
    'blobs',
    `SELECT * FROM (VALUES
      ('b1', '${DOC}', '${DOC}', ['x', 'y']),
      ('b2', '${BROKEN}', '${PLAIN}', ['z']),
      ('b3', '"text"', '42', []),
      ('b4', NULL, NULL, NULL)
    ) v(_recordid, doc, note, tags)`,
    [
      { name: 'doc', label: 'Doc', type: 'json_blob', description: null, annotations: {} },
      { name: 'note', label: 'Note', type: 'text', description: null, annotations: {} },
      { name: 'tags', label: 'Tags', type: 'text', description: null, annotations: { multivalued: [','] } },
    ],
  );

describe('json_format() and json_blob fields (fixture)', () => {
  let server: TestServer;
  before(async () => {
    server = await startFixtureServer(addBlobs);
  });
  after(() => server?.close());

  const text = async (path: string): Promise<string> => {
    const response = await server.get(path);
    const body = await response.text();
    expect(response.status, body).to.equal(200);
    return body;
  };
  const query = (params: Record<string, string>) => new URLSearchParams(params).toString();
  const SELECT = { select: 'json_format(doc) as jdoc, json_format(note) as jnote' };

  describe('exports other than JSON: json_format() gives the stored text as it is', () => {
    it('csv', async () => {
      const csv = await text(`${V21}/exports/csv?${query({ ...SELECT, with_bom: 'false' })}`);
      // DuckDB's CSV writer quotes a cell holding quotes, doubling them: the CSV rule, not JSON's.
      expect(csv.split('\n')).to.deep.equal([
        'jdoc;jnote',
        `"${DOC.replaceAll('"', '""')}";"${DOC.replaceAll('"', '""')}"`,
        `${BROKEN};"He said ""hi"""`,
        '"""text""";42',
        ';',
        '',
      ]);
    });

    it('xlsx', async () => {
      const response = await server.get(`${V21}/exports/xlsx?${query(SELECT)}`);
      expect(response.status).to.equal(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(await response.arrayBuffer());
      const sheet = workbook.worksheets[0]!;
      const column = (c: number) => [2, 3, 4, 5].map((r) => sheet.getRow(r).getCell(c).value ?? null);
      expect(column(1)).to.deep.equal([DOC, BROKEN, '"text"', null]);
      expect(column(2)).to.deep.equal([DOC, PLAIN, '42', null]);
    });

    it('json keeps parsing: valid JSON as values, other text as strings', async () => {
      const rows = JSON.parse(await text(`${V21}/exports/json?${query(SELECT)}`));
      expect(rows).to.deep.equal([
        { jdoc: { a: [1, 2], b: 'x' }, jnote: { a: [1, 2], b: 'x' } },
        { jdoc: BROKEN, jnote: PLAIN },
        { jdoc: 'text', jnote: 42 },
        { jdoc: null, jnote: null },
      ]);
    });
  });

  describe('json_blob text that is not valid JSON stays text, never null', () => {
    it('in records', async () => {
      const { status, body } = await server.json(`${V21}/records?select=doc`);
      expect(status).to.equal(200);
      expect(body.results.map((r: { doc: unknown }) => r.doc)).to.deep.equal([
        { a: [1, 2], b: 'x' },
        BROKEN,
        'text',
        null,
      ]);
    });

    it('in the JSON export, and as stored in the CSV export', async () => {
      const rows = JSON.parse(await text(`${V21}/exports/json?select=doc`));
      expect(rows.map((r: { doc: unknown }) => r.doc)).to.deep.equal([
        { a: [1, 2], b: 'x' },
        BROKEN,
        'text',
        null,
      ]);
      const csv = await text(`${V21}/exports/csv?select=doc&with_bom=false`);
      expect(csv.split('\n').slice(1, 3)).to.deep.equal([`"${DOC.replaceAll('"', '""')}"`, BROKEN]);
    });

    it('in v1 records and downloads, which keep the field', async () => {
      const { body } = await server.json('/api/records/1.0/search/?dataset=blobs&rows=10');
      const docs = body.records.map((r: { fields: { doc?: unknown } }) => r.fields.doc);
      expect(docs).to.deep.equal([{ a: [1, 2], b: 'x' }, BROKEN, 'text', undefined]);
      const json = JSON.parse(await text('/api/records/1.0/download/?dataset=blobs&format=json'));
      expect(json.map((r: { fields: { doc?: unknown } }) => r.fields.doc)).to.deep.equal(docs);
      const csv = await text('/api/records/1.0/download/?dataset=blobs&format=csv&fields=doc');
      expect(
        csv
          .replace(/^\uFEFF/, '')
          .split('\n')
          .slice(0, 3),
      ).to.deep.equal(['doc', `"${DOC.replaceAll('"', '""')}"`, BROKEN]);
    });
  });

  it('json_format() on a multivalued field is a 400 naming that cause', async () => {
    const { status, body } = await server.json(`${V21}/records?select=json_format(tags)`);
    expect(status).to.equal(400);
    expect(body.error_code).to.equal('QueryLangError');
    expect(body.message).to.match(/json_format\(\).*\(tags\), which is multivalued/);
  });
});
