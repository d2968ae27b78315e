// Tables of value counts: ingest writes counts/<field>.parquet (each value, null included, and its
// records) for the scalar fields with few distinct values of a large dataset, records them in
// dataset.json, replaces them with the data, and the server answers one-field counts from them.
import { expect } from 'chai';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { valueCountsPath } from '../../src/catalog/portal.js';
import { ingest } from '../../src/ingest/ingest.js';
import { AUTO_SORT_MIN_ROWS } from '../../src/ingest/sort-key.js';
import { quoteString } from '../../src/sql/quoting.js';
import { startTestServer } from '../helpers/server.js';
import { cleanup, dataPath, query, readDatasetFile, tempDir } from './helpers.js';

/** Rows of the fixture: just above the size from which ingest writes tables. */
const ROWS = 500_000;

/** Column names and types of a Parquet file, in order. */
const columnsOf = async (file: string) =>
  (await query(`DESCRIBE SELECT * FROM read_parquet(${quoteString(file)})`)).map(
    (c) => `${c.column_name as string} ${c.column_type as string}`,
  );

/** The rows of a table of counts, and the same counted from the data, both in one order. */
async function countsAndTruth(portal: string, field: string) {
  const order = `ORDER BY "${field}" NULLS LAST`;
  const table = await query(
    `SELECT * FROM read_parquet(${quoteString(valueCountsPath(path.join(portal, 'datasets', 'readings'), field))}) ${order}`,
  );
  const truth = await query(
    `SELECT "${field}", count(*) AS _count FROM read_parquet(${quoteString(dataPath(portal, 'readings'))}) GROUP BY ALL ${order}`,
  );
  return { table, truth };
}

describe('ingest: tables of value counts', () => {
  let dir: string;
  let portal: string;
  let source: string;

  before(async () => {
    dir = await tempDir();
    portal = path.join(dir, 'portal');
    source = path.join(dir, 'readings.parquet');
    // 40 cities and nulls, 1000 days, a flag: few values; `value` has one per row, `tags` is a list.
    await query(`COPY (SELECT CASE WHEN i % 97 = 0 THEN NULL ELSE 'city-' || CAST(hash(i) % 40 AS VARCHAR) END AS city,
        DATE '2020-01-01' + CAST(i % 1000 AS INTEGER) AS taken, i AS value, i % 3 = 0 AS ok,
        'a;b' AS tags
      FROM range(${ROWS}) t(i)) TO ${quoteString(source)} (FORMAT parquet)`);
    await ingest({ file: source, portal, id: 'readings', multivalued: { tags: ';' } });
  });
  after(cleanup);

  it('writes one per scalar field of at most rows/8 values and records them in dataset.json', async () => {
    expect(ROWS).to.be.at.least(AUTO_SORT_MIN_ROWS);
    const file = await readDatasetFile(portal, 'readings');
    expect(file.computed.value_counts).to.deep.equal(['city', 'taken', 'ok']);
    const folder = path.join(portal, 'datasets', 'readings');
    expect(existsSync(valueCountsPath(folder, 'value')), 'one value per row').to.equal(false);
    expect(existsSync(valueCountsPath(folder, 'tags')), 'a list').to.equal(false);
  });

  it('counts every value and null exactly, the value column typed as stored', async () => {
    const stored = await columnsOf(dataPath(portal, 'readings'));
    for (const field of ['city', 'taken', 'ok']) {
      const { table, truth } = await countsAndTruth(portal, field);
      expect(table, field).to.deep.equal(truth);
      const folder = path.join(portal, 'datasets', 'readings');
      const columns = await columnsOf(valueCountsPath(folder, field));
      expect(columns, field).to.deep.equal([stored.find((c) => c.startsWith(`${field} `)), '_count BIGINT']);
    }
    const { table } = await countsAndTruth(portal, 'city');
    expect(table.at(-1)).to.deep.equal({ city: null, _count: String(Math.ceil(ROWS / 97)) });
    expect(table.reduce((sum, row) => sum + Number(row._count), 0)).to.equal(ROWS);
  });

  it('answers one-field counts over HTTP from the tables (one altered on purpose shows through)', async () => {
    const altered = valueCountsPath(path.join(dir, 'altered', 'datasets', 'readings'), 'city');
    await query(
      `COPY (SELECT city, _count * 2 AS _count FROM read_parquet(${quoteString(
        valueCountsPath(path.join(portal, 'datasets', 'readings'), 'city'),
      )})) TO ${quoteString(path.join(dir, 'doubled.parquet'))} (FORMAT parquet)`,
    );
    await cp(portal, path.join(dir, 'altered'), { recursive: true });
    await cp(path.join(dir, 'doubled.parquet'), altered);
    const [{ n }] = (await query(
      `SELECT count(*)::INTEGER AS n FROM read_parquet(${quoteString(source)}) WHERE city = 'city-7'`,
    )) as [{ n: number }];
    const server = await startTestServer(path.join(dir, 'altered'));
    try {
      const records = (params: string) =>
        server.json(`/api/explore/v2.1/catalog/datasets/readings/records?${params}`);
      const where = `where=${encodeURIComponent("city = 'city-7'")}`;
      expect((await records(`${where}&limit=0`)).body.total_count).to.equal(2 * n);
      expect((await records(`${where}&limit=0&select=value`)).body.total_count).to.equal(2 * n);
      const grouped = await records(`${where}&select=count(*) as n&group_by=city`);
      expect(grouped.body.results).to.deep.equal([{ city: 'city-7', n: 2 * n }]);
      // Two fields: the rows.
      const both = `where=${encodeURIComponent("city = 'city-7' and value >= 0")}`;
      expect((await records(`${both}&limit=0`)).body.total_count).to.equal(n);
    } finally {
      await server.close();
    }
  });

  it('replaces them with the data: a new version below the size has none, and no folder', async () => {
    const small = path.join(dir, 'small.parquet');
    await query(
      `COPY (SELECT * FROM read_parquet(${quoteString(source)}) LIMIT 1000) TO ${quoteString(small)} (FORMAT parquet)`,
    );
    await ingest({ file: small, portal, id: 'readings', multivalued: { tags: ';' } });
    expect((await readDatasetFile(portal, 'readings')).computed.value_counts).to.deep.equal([]);
    expect(existsSync(path.join(portal, 'datasets', 'readings', 'counts'))).to.equal(false);
    await ingest({ file: source, portal, id: 'readings', multivalued: { tags: ';' } });
    const { table, truth } = await countsAndTruth(portal, 'taken');
    expect(table).to.deep.equal(truth);
  });
});
