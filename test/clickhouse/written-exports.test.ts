// The exports whose lines ClickHouse writes itself (src/engine/clickhouse/written-copy.ts): a
// dataset of hostile values (quotes, separators, tabs, CR/LF, unicode, empty texts and nulls,
// dates and instants at the epoch, big integers, small and large doubles, lists, points) ingested
// into Parquet and attached from a two-shard ClickHouse cluster; its CSV (every delimiter and
// quoting option), JSON and JSON lines have the Parquet copy's bytes, its Parquet the same values
// and types read back with DuckDB. And every column type of a portal table has a spelling in
// ClickHouse's SQL, so none of these goes the way of values through JavaScript.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { csvColumns, encodedColumnsOf } from '../../src/engine/clickhouse/copy-columns.js';
import { encodedColumns } from '../../src/engine/clickhouse/parquet-rows.js';
import type { ResultColumn } from '../../src/engine/clickhouse/tsv-rows.js';
import { BOOLEAN_TYPE } from '../../src/engine/clickhouse/types.js';
import { startClickHouseCluster, type ClickHouseCluster } from '../helpers/clickhouse-cluster.js';
import { attachCopyOf, readOnlyUrl } from '../helpers/clickhouse-attached.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { duckRows } from '../exports/readers.js';

const run = promisify(execFile);
const v2 = '/api/explore/v2.1/catalog/datasets';

/** The rows: each hostile value once, and a row of nulls. */
const ROWS = [
  {
    name: 'short',
    n: 1,
    x: 0.5,
    ok: true,
    day: '2024-02-29',
    at: '2024-02-29T12:34:56Z',
    tags: 'a|an item, "quoted"',
    lat: 37.25,
    lon: -122.5,
  },
  { name: null, n: null, x: null, ok: null, day: null, at: null, tags: null, lat: null, lon: null },
  {
    name: '',
    n: -3,
    x: 2.0,
    ok: false,
    day: '1970-01-01',
    at: '1970-01-01T00:00:00Z',
    tags: 'x;y',
    lat: -90,
    lon: 0,
  },
  {
    name: 'tab\t"quoted";\nline é,\\N',
    n: 9007199254740993n,
    x: 1e-7,
    ok: true,
    day: '2105-12-31',
    at: '2038-01-19T03:14:08Z',
    tags: 'é|',
    lat: 90,
    lon: 180,
  },
  {
    name: '日本語 🚀 \r\n crlf',
    n: 0,
    x: 1e20,
    ok: false,
    day: '2000-01-01',
    at: '1999-12-31T23:59:59Z',
    tags: 'one',
    lat: 48.8566,
    lon: 2.3522,
  },
  {
    name: ' spaces ',
    n: 42,
    x: -123.456,
    ok: true,
    day: '2020-06-15',
    at: '2020-06-15T08:00:00Z',
    tags: 'p|q|r',
    lat: -33.8688,
    lon: 151.2093,
  },
  {
    name: 'semi;colon',
    n: 7,
    x: 3.14159265358979,
    ok: true,
    day: '2020-06-16',
    at: '2020-06-15T08:00:01Z',
    tags: '[brackets], comma',
    lat: 1e-5,
    lon: -1e-5,
  },
];

/** The requests asked of both datasets (the attached one's id is the Parquet one's with `-ch`). */
const REQUESTS = [
  'csv',
  'csv?delimiter=%2C',
  'csv?delimiter=%09&quote_all=true',
  'csv?delimiter=%7C&with_bom=false',
  'csv?select=name,tags,geo_point_2d,x*3 as y&order_by=n desc',
  'csv?where=name is null',
  'csv?where=n = -999',
  'csv?select=name,count(*) as c&group_by=name',
  'csv?use_labels=true',
  'json',
  'jsonl',
  'json?select=at,%60day%60,tags,geo_point_2d',
  'parquet',
  'parquet?select=tags,geo_point_2d,ok,%60day%60,at&where=n > 0',
];

describe('exports written by ClickHouse (hostile values) as the Parquet copy', function () {
  this.timeout(300_000);
  let dir: string;
  let cluster: ClickHouseCluster;
  let server: TestServer;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-ch-written-'));
    cluster = await startClickHouseCluster(path.join(dir, 'cluster'), 2);
    const portalDir = path.join(dir, 'portal');
    await mkdir(path.join(portalDir, 'datasets'), { recursive: true });
    await writeFile(path.join(portalDir, 'portal.json'), JSON.stringify({ title: 'Written' }));
    const file = path.join(dir, 'hostile.jsonl');
    // 2^53 + 1 as a JSON number, not the double JSON.stringify would round it to.
    const line = (row: object) =>
      JSON.stringify(row, (_, v: unknown) => (typeof v === 'bigint' ? `#${v}#` : v));
    await writeFile(file, ROWS.map((row) => line(row).replace(/"#(\d+)#"/, '$1') + '\n').join(''));
    const cli = path.resolve('dist/src/cli.js');
    const args = [
      '--portal',
      portalDir,
      '--id',
      'hostile',
      '--geo-point',
      'lat,lon',
      '--multivalued',
      'tags:|',
    ];
    await run(process.execPath, [cli, 'ingest', file, ...args]);
    await attachCopyOf(cluster, portalDir, 'hostile', readOnlyUrl(cluster));
    server = await startTestServer(portalDir, { cacheBytes: 0 });
  });
  after(async () => {
    await server?.close();
    await cluster?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** Status and body of `request` on a dataset. */
  const answer = async (id: string, request: string) => {
    const response = await server.get(`${v2}/${id}/exports/${request}`);
    return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
  };

  /** Parquet bytes' rows and column types, read back with DuckDB. */
  const parquetContent = async (bytes: Buffer): Promise<unknown> => {
    const file = path.join(dir, `read-${Math.random().toString(36).slice(2)}.parquet`);
    await writeFile(file, bytes);
    return duckRows(`read_parquet('${file}')`);
  };

  for (const request of REQUESTS) {
    it(`${request}: as the Parquet copy's`, async () => {
      const [parquet, attached] = await Promise.all([
        answer('hostile', request),
        answer('hostile-ch', request),
      ]);
      expect(parquet.status, parquet.body.toString()).to.equal(200);
      expect(attached.status, attached.body.toString()).to.equal(200);
      if (request.startsWith('parquet')) {
        const [expected, actual] = await Promise.all([
          parquetContent(parquet.body),
          parquetContent(attached.body),
        ]);
        expect(actual).to.deep.equal(expected);
      } else {
        expect(attached.body.toString('utf8').replaceAll('hostile-ch', 'hostile')).to.equal(
          parquet.body.toString('utf8'),
        );
      }
    });
  }

  it('has every column type of a portal table spelled in ClickHouse SQL, for CSV and Parquet', () => {
    const point = 'Tuple(Nullable(Float64), Nullable(Float64))';
    const types = [
      'String',
      'Nullable(String)',
      'Nullable(Int64)',
      'UInt64',
      'Nullable(Float64)',
      `Nullable(${BOOLEAN_TYPE})`,
      'Nullable(Date)',
      "Nullable(DateTime('UTC'))",
      'Array(String)',
      point,
    ];
    // A point leaves the compiler as its text "lat, lon" for CSV (odsql's shape), never as a tuple.
    const csvTyped: ResultColumn[] = types
      .filter((type) => type !== point)
      .map((type, i) => ({ name: `c${i}`, type }) as ResultColumn);
    const columns = types.map((type, i) => ({ name: `c${i}`, type }) as ResultColumn);
    const csv = { format: 'csv', delimiter: ';', forceQuote: [] } as const;
    expect(csvColumns('SELECT 1', csvTyped, csv)).to.be.an('object');
    const kinds = encodedColumns(columns).map((c) => c.kind);
    expect(encodedColumnsOf('SELECT 1', columns, kinds)).to.be.a('string');
    // A JSON value (a one-text tuple) has none: its copy goes the values' way.
    const json = [{ name: 'j', type: 'Tuple(String)' } as ResultColumn];
    expect(csvColumns('SELECT 1', json, csv)).to.equal(null);
  });
});
