// A page read in file order (src/odsql/file-order.ts) is the page ORDER BY gives: over a dataset
// ingested sorted on (a, d, b) with ties and nulls, random pins, filters, orders and pages give
// the same rows either way; the rule is not taken where the file's order is not the asked one.
import { expect } from 'chai';
import fc from 'fast-check';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { QuerySource } from '../../src/odsql/source.js';
import { parquetViewSql } from '../../src/engine/duckdb/engine.js';
import { ingest } from '../../src/ingest/ingest.js';
import { clickhouseDialect } from '../../src/odsql/dialect/clickhouse/dialect.js';
import { quoteString } from '../../src/sql/quoting.js';
import { compileQuery, facetConditions, parseWhere, type QueryParams } from '../../src/odsql/index.js';
import { SAMPLE_PORTAL, useSampleSuite } from '../helpers/sample-portal.js';
import { cleanup, dataPath, query, readDatasetFile, tempDir } from '../ingest/helpers.js';
import { field } from './fixture.js';

/** Three row groups of ingest's 122,880 rows, so that DuckDB's threads scan several at once. */
const ROWS = 260_000;

/** Values in no order (hashes of the row number); every field has nulls, (a, d, b) has many ties. */
const SOURCE_SQL = `SELECT
    CASE WHEN hash(i) % 7 = 6 THEN NULL ELSE 'a' || (hash(i) % 7) END AS a,
    CASE WHEN hash(i + 1) % 50 = 0 THEN NULL ELSE DATE '2020-01-01' + CAST(hash(i + 1) % 40 AS INTEGER) END AS d,
    CASE WHEN hash(i + 2) % 5 = 4 THEN NULL ELSE 'b' || (hash(i + 2) % 5) END AS b,
    CAST(hash(i + 3) % 100 AS BIGINT) AS n,
    (hash(i + 4) % 1000) / 1000.0 AS x,
    CASE WHEN hash(i + 5) % 3 = 2 THEN NULL ELSE hash(i + 5) % 3 = 1 END AS ok
  FROM range(${ROWS}) t(i)`;

const SORT_BY = ['a', 'd', 'b'];

const pins = fc.record({
  a: fc.option(fc.constantFrom("a = 'a0'", "a = 'a3'", "'a5' = a", "a = 'none'")),
  b: fc.option(fc.constantFrom("b = 'b1'", "b = 'b2'")),
  n: fc.option(fc.constantFrom('n = 7', 'n = 42')),
});
const extra = fc.constantFrom(null, 'n > 50', 'x < 0.3', 'ok is true', "d >= date'2020-01-20'", 'b is null');
const ORDERS = ['d', 'd, b', 'a, d', 'a, d, b', 'b', 'b, d', 'd desc', 'n', 'd, n', 'a'];

describe('odsql: a page read in file order', () => {
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;
  let sorted: QuerySource;

  before(async function () {
    this.timeout(120_000);
    const dir = await tempDir();
    const file = path.join(dir, 'rows.parquet');
    await query(`COPY (${SOURCE_SQL}) TO ${quoteString(file)} (FORMAT parquet)`);
    const portal = path.join(dir, 'portal');
    await ingest({ file, portal, id: 'rows', sortBy: SORT_BY });
    const { fields, computed } = await readDatasetFile(portal, 'rows');
    expect(computed.sort_by).to.deep.equal(SORT_BY);
    instance = await DuckDBInstance.create(':memory:', { threads: '4' });
    connection = await instance.connect();
    await connection.run(parquetViewSql('rows', dataPath(portal, 'rows'), 'dataset'));
    sorted = { table: 'rows', searchTable: null, fields, sortBy: computed.sort_by };
  });
  after(async () => {
    connection.closeSync();
    instance.closeSync();
    await cleanup();
  });

  const run = async (sql: string) => (await connection.runAndReadAll(sql)).getRowObjectsJson();

  it('gives the rows ORDER BY gives, for random pins, filters, orders, limits and offsets', async () => {
    let taken = 0;
    await fc.assert(
      fc.asyncProperty(
        pins,
        extra,
        fc.constantFrom(...ORDERS),
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0, max: 1.05, noNaN: true }),
        fc.boolean(),
        async (pinned, filter, orderBy, limit, at, asRowFilter) => {
          const conditions = [pinned.a, pinned.b, pinned.n, filter].filter((c) => c !== null);
          // A pin may come from the audience's row filter rather than the request's where.
          const [first, ...rest] = conditions;
          const rowFilter = asRowFilter && first !== undefined ? parseWhere(first) : null;
          const where = rowFilter ? rest : conditions;
          const [{ total_count }] = (await run(
            compileQuery({ ...sorted, rowFilter }, { where }).countSql,
          )) as [{ total_count: number }];
          const params: QueryParams = {
            where,
            orderBy,
            limit,
            offset: Math.floor(at * total_count),
            withRecordId: true,
          };
          const inFileOrder = compileQuery({ ...sorted, rowFilter }, params);
          const reference = compileQuery({ ...sorted, rowFilter, sortBy: [] }, params);
          expect(reference.sql).to.include('ORDER BY');
          if (!inFileOrder.sql.includes('ORDER BY')) taken += 1;
          expect(await run(inFileOrder.sql), inFileOrder.sql).to.deep.equal(await run(reference.sql));
        },
      ),
      { numRuns: 150, seed: 28 },
    );
    expect(taken, 'pages read in file order').to.be.above(30);
  });

  it('reads the pages of a pinned prefix in file order: no ORDER BY', () => {
    const sqlOf = (params: QueryParams, source: QuerySource = sorted) => compileQuery(source, params).sql;
    for (const [where, orderBy] of [
      ["a = 'a1'", 'd'],
      ["a = 'a1'", 'd, b'],
      ["a = 'a1'", 'a, d'],
      ["a = 'a1' and b = 'b0'", 'd'],
      ["a = 'a1' and d >= date'2020-01-05'", 'd'],
      ["b = 'b3' and a = 'a2'", 'b, a, d'],
    ] as const) {
      expect(sqlOf({ where: [where], orderBy, limit: 10 }), `${where} ${orderBy}`).to.not.include('ORDER BY');
    }
    // From a refine, and from the audience's row filter.
    const [refined] = facetConditions(
      { field: field('a', 'text'), kind: 'plain', separator: '/', disjunctive: true },
      ['a4'],
      [],
    );
    expect(sqlOf({ extraWhere: [refined!], orderBy: 'd', limit: 10 })).to.not.include('ORDER BY');
    expect(
      sqlOf({ orderBy: 'd', limit: 10 }, { ...sorted, rowFilter: parseWhere("a = 'a4'") }),
    ).to.not.include('ORDER BY');
  });

  it('sorts where the file order is not the asked one', () => {
    const sqlOf = (params: QueryParams, source: QuerySource = sorted) => compileQuery(source, params).sql;
    const page = { where: ["a = 'a1'"], orderBy: 'd', limit: 10 };
    for (const [reason, params, source] of [
      ['no sort key', page, { ...sorted, sortBy: [] }],
      ['a descending order', { ...page, orderBy: 'd desc' }, sorted],
      ['a gap in the key (b after an unpinned d)', { ...page, orderBy: 'b' }, sorted],
      ['no pin: the key starts with a', { ...page, where: [] }, sorted],
      ['a pin by OR', { ...page, where: ["a = 'a1' or a = 'a2'"] }, sorted],
      ['a pin by IN', { ...page, where: ["a in ('a1')"] }, sorted],
      ['a pin under NOT', { ...page, where: ["not (a != 'a1')"] }, sorted],
      [
        'a date literal (a whole granule)',
        { where: ["a = 'a1' and d = date'2020-01-02'"], orderBy: 'b' },
        sorted,
      ],
      [
        'a double equality (-0.0 = 0.0)',
        { where: ['x = 0'], orderBy: 'd' },
        { ...sorted, sortBy: ['x', 'd'] },
      ],
      ['an expression', { ...page, orderBy: 'year(d)' }, sorted],
      ['grouped rows', { ...page, select: 'd, count(*) as c', groupBy: 'd' }, sorted],
      [
        'an index search (a join)',
        { ...page, where: ["a = 'a1' and search(b, 'b1')"] },
        { ...sorted, searchTable: 'rows__search' },
      ],
      ['ClickHouse (no file order)', page, { ...sorted, dialect: clickhouseDialect }],
    ] as const) {
      expect(sqlOf(params, source), reason).to.include('ORDER BY');
    }
  });
});

describe('odsql: the sample flights page in file order, over HTTP', () => {
  const suite = useSampleSuite();

  it("answers origin = 'SFO' by date as ORDER BY date does, with its exact total_count", async () => {
    for (const offset of [0, 5_000, 9_990]) {
      const { status, body } = await suite.server.json(
        `/api/explore/v2.1/catalog/datasets/flights/records?where=origin%3D'SFO'&order_by=date&limit=10&offset=${offset}&select=date,destination`,
      );
      expect(status).to.equal(200);
      expect(body.total_count).to.equal(60_869);
      const expected = await suite.reference
        .rows(`SELECT strftime(date, '%Y-%m-%dT%H:%M:%S+00:00') AS date, destination
        FROM read_parquet(${quoteString(dataPath(SAMPLE_PORTAL, 'flights'))}, file_row_number = true)
        WHERE origin = 'SFO' ORDER BY date, file_row_number LIMIT 10 OFFSET ${offset}`);
      expect(body.results, `offset ${offset}`).to.deep.equal(expected);
    }
  });
});
