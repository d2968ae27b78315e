// Clustered storage: data.parquet sorted on --sort-by (or, from four row groups of rows, on the
// facets then the first date), its row groups bounded by min/max statistics that let DuckDB skip
// those a filter on the key excludes, and total_count exact on every page.
import { expect } from 'chai';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { ingest } from '../../src/ingest/ingest.js';
import { AUTO_SORT_MIN_ROWS } from '../../src/ingest/sort-key.js';
import { quoteString } from '../../src/sql/quoting.js';
import { SAMPLE_PORTAL } from '../helpers/sample-portal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from './csv.test.js';
import { cleanup, dataPath, query, readDatasetFile, readRows, tempDir } from './helpers.js';

/** Rows of the fixture: three row groups of DuckDB's 122,880. */
const ROWS = 300_000;

/** Per row group, its rows and the min and max statistics of one column of a Parquet file. */
async function rowGroupBounds(
  file: string,
  column: string,
): Promise<{ n: number; lo: string; hi: string }[]> {
  const rows =
    await query(`SELECT row_group_num_rows::INTEGER AS n, stats_min_value AS lo, stats_max_value AS hi
    FROM parquet_metadata(${quoteString(file)}) WHERE path_in_schema = ${quoteString(column)} ORDER BY row_group_id`);
  return rows as { n: number; lo: string; hi: string }[];
}

/** Whether each row group's values of the column come after the previous group's. */
const ordered = (bounds: readonly { lo: string; hi: string }[]): boolean =>
  bounds.every((b, i) => i === 0 || bounds[i - 1]!.hi <= b.lo);

/** Rows of a Parquet file that come before the previous row in the order of `key`. */
async function outOfOrder(file: string, key: string): Promise<number> {
  const [row] = await query(`SELECT count(*)::INTEGER AS n FROM (
      SELECT (${key}) AS k, lag((${key})) OVER (ORDER BY file_row_number) AS previous
      FROM read_parquet(${quoteString(file)}, file_row_number = true)) WHERE previous > k`);
  return row!.n as number;
}

describe('ingest: clustered storage (--sort-by)', () => {
  let dir: string;
  let portal: string;
  let source: string;

  before(async () => {
    dir = await tempDir();
    portal = path.join(dir, 'portal');
    source = path.join(dir, 'readings.parquet');
    // Cities in no order (a hash of the row number), days and values from the row number.
    await query(`COPY (SELECT 'city-' || lpad(CAST(hash(i) % 40 AS VARCHAR), 2, '0') AS city,
        DATE '2020-01-01' + CAST(i % 1000 AS INTEGER) AS taken, i AS value
      FROM range(${ROWS}) t(i)) TO ${quoteString(source)} (FORMAT parquet)`);
    await ingest({ file: source, portal, id: 'readings', sortBy: ['city', 'taken'] });
  });
  after(cleanup);

  it('writes the rows sorted on the key, records it in dataset.json, and bounds each row group', async () => {
    expect((await readDatasetFile(portal, 'readings')).computed.sort_by).to.deep.equal(['city', 'taken']);
    expect(await outOfOrder(dataPath(portal, 'readings'), 'city, taken')).to.equal(0);
    expect(await outOfOrder(source, 'city, taken')).to.be.above(1000);
    const bounds = await rowGroupBounds(dataPath(portal, 'readings'), 'city');
    expect(bounds.map((b) => b.n)).to.deep.equal([122_880, 122_880, ROWS - 2 * 122_880]);
    expect(ordered(bounds)).to.equal(true);
  });

  it('stores every column in LZ4 pages (faster to decode than snappy)', async () => {
    const codecs = await query(
      `SELECT DISTINCT compression FROM parquet_metadata(${quoteString(dataPath(portal, 'readings'))})`,
    );
    expect(codecs).to.deep.equal([{ compression: 'LZ4_RAW' }]);
  });

  it("writes Parquet's V2 pages: distinct integers delta-encoded, a few values in a dictionary", async () => {
    const encodings = await query(
      `SELECT DISTINCT path_in_schema AS field, encodings FROM parquet_metadata(${quoteString(dataPath(portal, 'readings'))})
       WHERE path_in_schema IN ('taken', 'value') ORDER BY 1`,
    );
    // taken: 1,000 distinct days; value: the row number (the V1 pages' PLAIN).
    expect(encodings).to.deep.equal([
      { field: 'taken', encodings: 'RLE_DICTIONARY' },
      { field: 'value', encodings: 'DELTA_BINARY_PACKED' },
    ]);
  });

  it('lets DuckDB skip the row groups a filter on the key excludes: it never reads them', async () => {
    // A copy whose last row group's `value` pages are overwritten with garbage: a scan that reads
    // them fails, a filter on a city of the first row group answers from the first group alone.
    const copy = path.join(dir, 'damaged.parquet');
    await query(
      `COPY (SELECT * FROM read_parquet(${quoteString(dataPath(portal, 'readings'))})) TO ${quoteString(copy)} (FORMAT parquet)`,
    );
    const [chunk] =
      await query(`SELECT coalesce(dictionary_page_offset, data_page_offset) AS start, total_compressed_size AS size
      FROM parquet_metadata(${quoteString(copy)}) WHERE path_in_schema = 'value' AND row_group_id = 2`);
    const [first] = await rowGroupBounds(copy, 'city');
    const city = first!.lo;
    const want = await query(
      `SELECT sum(value)::BIGINT AS s FROM read_parquet(${quoteString(copy)}) WHERE city = ${quoteString(city)}`,
    );
    const file = await open(copy, 'r+');
    await file.write(Buffer.alloc(Number(chunk!.size), 0xff), 0, Number(chunk!.size), Number(chunk!.start));
    await file.close();
    expect(
      await query(
        `SELECT sum(value)::BIGINT AS s FROM read_parquet(${quoteString(copy)}) WHERE city = ${quoteString(city)}`,
      ),
    ).to.deep.equal(want);
    let failed = false;
    await query(`SELECT sum(value) FROM read_parquet(${quoteString(copy)})`).catch(() => (failed = true));
    expect(failed, 'a full scan reads the damaged row group').to.equal(true);
  });

  describe('over the API', () => {
    let server: TestServer;
    before(async () => (server = await startTestServer(portal)));
    after(() => server.close());

    it('keeps total_count exact on every page of a filter on the key and off it', async () => {
      for (const where of [
        "city = 'city-07'",
        "city in ('city-03', 'city-31') and taken >= date'2021-06-01'",
        'value >= 123456 and value < 234567',
      ]) {
        const [{ n }] = (await query(
          `SELECT count(*)::INTEGER AS n FROM read_parquet(${quoteString(source)}) WHERE ${where.replace("date'", "DATE '")}`,
        )) as [{ n: number }];
        for (const params of [
          'limit=10',
          'limit=10&offset=100',
          'order_by=value desc&limit=5',
          'order_by=taken&limit=3&offset=7',
        ]) {
          const { status, body } = await server.json(
            `/api/explore/v2.1/catalog/datasets/readings/records?where=${encodeURIComponent(where)}&${params}`,
          );
          expect(status, `${where} ${params}`).to.equal(200);
          expect(body.total_count, `${where} ${params}`).to.equal(n);
        }
      }
    });
  });

  it('keeps the file order when asked (--sort-by none) and below four row groups of rows', async () => {
    await ingest({ file: source, portal, id: 'unsorted', sortBy: [] });
    expect((await readDatasetFile(portal, 'unsorted')).computed.sort_by).to.deep.equal([]);
    const stored = await readRows(portal, 'unsorted', 'value');
    expect(stored.every((r, i) => Number(r.value) === i)).to.equal(true);
    expect(ROWS).to.be.below(AUTO_SORT_MIN_ROWS);
    await ingest({ file: source, portal, id: 'small', facets: ['city'] });
    expect((await readDatasetFile(portal, 'small')).computed.sort_by).to.deep.equal([]);
  });

  it('refuses a key that is not a field, or a list', async () => {
    await expectError(ingest({ file: source, portal, id: 'bad', sortBy: ['town'] }), /--sort-by.*town/);
    await expectError(
      ingest({ file: source, portal, id: 'bad', sortBy: ['city'], multivalued: { city: '-' } }),
      /--sort-by: city is a list/,
    );
  });

  it('sorts a large dataset on its first facet, its first date, then its other facets without being asked (the sample flights)', async () => {
    const flights = await readDatasetFile(SAMPLE_PORTAL, 'flights');
    expect(flights.computed.records_count).to.be.at.least(AUTO_SORT_MIN_ROWS);
    expect(flights.computed.sort_by).to.deep.equal(['origin', 'date', 'destination']);
    expect(await outOfOrder(dataPath(SAMPLE_PORTAL, 'flights'), 'origin, date, destination')).to.equal(0);
    expect(ordered(await rowGroupBounds(dataPath(SAMPLE_PORTAL, 'flights'), 'origin'))).to.equal(true);
    expect((await readDatasetFile(SAMPLE_PORTAL, 'airports')).computed.sort_by).to.deep.equal([]);
  });

  it('prunes on the first facet only: SFO in 1 of 25 row groups, a destination in all 25 (no pruning lost by the date coming second)', async () => {
    const admitting = async (column: string, value: string): Promise<number> =>
      (await rowGroupBounds(dataPath(SAMPLE_PORTAL, 'flights'), column)).filter(
        (b) => b.lo <= value && value <= b.hi,
      ).length;
    expect(await admitting('origin', 'SFO')).to.equal(1);
    for (const destination of ['LAX', 'ORD', 'SFO'])
      expect(await admitting('destination', destination)).to.equal(25);
  });
});
