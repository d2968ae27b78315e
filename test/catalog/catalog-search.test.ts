// The catalog's full-text index (src/search/catalog-search.ts, tokens from each index line) answers
// every search as the scan of the rows does, on a word of a description too, before and after a
// reload that changed one dataset's title and keywords; a rebuild of the changed rows' blocks
// equals a full build; catalog facets with ties answer as a DuckDB GROUP BY over the same rows.
import { expect } from 'chai';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { compileQuery } from '../../src/odsql/index.js';
import type { QuerySource } from '../../src/odsql/source.js';
import { defineCatalogSearchSql } from '../../src/search/catalog-search.js';
import { replaceCatalogSearchRows } from '../../src/server/sources.js';
import { copyId, writeCopies } from '../helpers/catalog-copies.js';
import { SAMPLE_PORTAL } from '../helpers/sample-portal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const COPIES = 300;
const V21 = '/api/explore/v2.1';
const SAMPLE = path.join(SAMPLE_PORTAL, 'datasets', 'seattle-weather');

/** Searches whose answers the index and the scan must agree on. */
const SEARCHES = [
  '"c123"',
  '"c12"',
  '"group7"',
  '"drizzle"',
  '"weather rain"',
  '"seatle copy"',
  '"NOAA"',
  '"Zanzibar"',
  '"harbour"',
  '"harbor lights"',
  '"données"',
  '"DONNEES"',
  'search(description, "precipitation")',
  'search(title, "copy 7")',
  'search(keyword, "lighthouse")',
  'suggest("lig")',
  '"nothing-matches-this"',
];

type Row = { dataset_id: string };

describe('the catalog full-text index', function () {
  this.timeout(300_000);
  let dir: string;
  let server: TestServer;

  /** Rewrites a copy's dataset.json through `change` (a rename, as ingest does). */
  const rewrite = async (index: number, change: (metas: Record<string, unknown>) => void): Promise<void> => {
    const file = path.join(dir, 'datasets', copyId(index), 'dataset.json');
    const parsed = JSON.parse(await readFile(file, 'utf8')) as {
      metas: { default: Record<string, unknown> };
    };
    change(parsed.metas.default);
    await writeFile(`${file}.new`, JSON.stringify(parsed));
    await rename(`${file}.new`, file);
  };

  /** The ids `where` selects over `source`, every one, in the catalog's order. */
  const ids = async (source: QuerySource, where: string): Promise<string[]> => {
    const query = compileQuery(source, { where: [where], select: 'dataset_id', limit: null });
    // Values are inlined: a compiled query has no parameters.
    const rows = await server.portal.services.engine.queryJson(query.sql);
    return rows.map((r) => r.dataset_id as string).sort();
  };

  /** Every search answered from the index and by the scan (no index), side by side. */
  const bothWays = async () => {
    const source = server.portal.services.catalog();
    expect(source.searchTable).to.be.a('string');
    const scan = { ...source, searchTable: null };
    const answers = [];
    for (const where of SEARCHES)
      answers.push({ where, index: await ids(source, where), scan: await ids(scan, where) });
    return answers;
  };

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-catsearch-'));
    await writeCopies(dir, SAMPLE, COPIES);
    await rewrite(5, (metas) => {
      metas.description = '<p>Ships in the Zanzibar harbour, données météo</p>';
    });
    server = await startTestServer(dir);
  });
  after(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('answers every search as the scan of the rows does', async () => {
    for (const { where, index, scan } of await bothWays()) expect(index, where).to.deep.equal(scan);
  });

  it('finds a word of a description, in the description only', async () => {
    const url = (where: string) =>
      `${V21}/catalog/datasets?select=dataset_id&where=${encodeURIComponent(where)}`;
    const all = await server.json(url('"zanzibar"'));
    expect(all.status).to.equal(200);
    expect(all.body.results.map((r: Row) => r.dataset_id)).to.deep.equal([copyId(5)]);
    const description = await server.json(url('search(description, "harbour")'));
    expect(description.body.results.map((r: Row) => r.dataset_id)).to.deep.equal([copyId(5)]);
    expect((await server.json(url('search(title, "harbour")'))).body.total_count).to.equal(0);
    // Accents and case are ignored as in a dataset's search.
    expect((await server.json(url('"DONNEES METEO"'))).body.total_count).to.equal(1);
  });

  it('answers as the scan after a reload that changed one title and its keywords', async () => {
    const before = await bothWays();
    await rewrite(7, (metas) => {
      metas.title = 'Harbor lights of copy seven';
      metas.keyword = ['lighthouse', 'harbor'];
    });
    const [portal] = await server.portal.reload();
    expect(portal!.load?.reread).to.deep.equal([copyId(7)]);
    const after = await bothWays();
    for (const { where, index, scan } of after) expect(index, where).to.deep.equal(scan);
    const changed = (where: string) => after.find((a) => a.where === where)!.index;
    expect(changed('"harbor lights"')).to.deep.equal([copyId(7)]);
    expect(changed('search(keyword, "lighthouse")')).to.deep.equal([copyId(7)]);
    expect(changed('"c123"')).to.deep.equal(before.find((b) => b.where === '"c123"')!.index);
    // copy 7 lost its keyword c7: the searches of words it no longer holds leave it out.
    expect(before.find((b) => b.where === '"group7"')!.index).to.include(copyId(7));
    expect(changed('"group7"')).to.not.include(copyId(7));
  });

  it('rebuilds only the blocks of rows replaced in place, to what a full build gives', async () => {
    const source = server.portal.services.catalog();
    const engine = server.portal.services.engine;
    const names = {
      catalog: source.table,
      recordId: '_recordid',
      ordinal: '_ordinal',
      tokens: '_tokens',
    };
    await engine.runStatements([
      `UPDATE "${source.table}" SET title = 'Quayside lanterns', _tokens = 'title quayside lanterns' WHERE _recordid = '${copyId(9)}'`,
      `DELETE FROM "${source.table}" WHERE _recordid = '${copyId(11)}'`,
    ]);
    await replaceCatalogSearchRows(engine, source, [copyId(9), copyId(11)]);
    await engine.runStatements([defineCatalogSearchSql({ ...names, search: 'full_build' })]);
    const rows = (table: string) =>
      engine.queryJson(`SELECT token, field, ords, block FROM "${table}" ORDER BY token, field, block`);
    const [replaced, full] = [await rows(source.searchTable!), await rows('full_build')];
    expect(replaced.length).to.be.greaterThan(1000);
    expect(replaced).to.deep.equal(full);
    expect(await ids(source, 'search(title, "quayside lanterns")')).to.deep.equal([copyId(9)]);
    const c11 = await ids(source, '"c11"');
    expect(c11).to.deep.equal(await ids({ ...source, searchTable: null }, '"c11"'));
    expect(c11).to.have.length(10).and.not.include(copyId(11));
  });

  it('counts facets with ties as a GROUP BY over the same rows', async () => {
    // group<i % 100> keywords: 3 datasets each, tied; c<i>: one each; the sample's: every dataset;
    // Publisher <i % 20>: 15 each. The rows changed in place above are counted as they are now.
    const table = server.portal.services.catalog().table;
    const cases = [
      ['keyword', 'unnest(keyword)', ''],
      ['publisher', 'publisher', ''],
      ['keyword', 'unnest(keyword)', 'search(title, "copy 1")'],
    ] as const;
    for (const [field, values, where] of cases) {
      for (const [sort, order] of [
        ['-count', 'n DESC, v'],
        ['count', 'n, v'],
      ] as const) {
        for (const limit of [1, 7, 10, 150]) {
          const facet = encodeURIComponent(`facet(name="${field}", sort="${sort}", limit=${limit})`);
          const filter = where ? `&where=${encodeURIComponent(where)}` : '';
          const { status, body } = await server.json(`${V21}/catalog/facets?facet=${facet}${filter}`);
          expect(status).to.equal(200);
          const answered = body.facets[0].facets.map((f: { value: string; count: number }) => [
            f.value,
            f.count,
          ]);
          const expected = await server.portal.services.engine.queryJson(
            `SELECT v, n FROM (SELECT v, count(*) AS n FROM (SELECT ${values} AS v FROM "${table}"
              WHERE ${where ? `_ordinal IN (SELECT unnest(ords) FROM "${table}__search" WHERE field = 'title' AND token = 'copy' INTERSECT SELECT unnest(ords) FROM "${table}__search" WHERE field = 'title' AND starts_with(token, '1'))` : 'TRUE'})
              WHERE v IS NOT NULL GROUP BY v) ORDER BY ${order} LIMIT ${limit}`,
          );
          expect(answered, `${field} ${sort} ${limit} ${where}`).to.deep.equal(
            expected.map((r) => [r.v, Number(r.n)]),
          );
        }
      }
    }
  });
});
