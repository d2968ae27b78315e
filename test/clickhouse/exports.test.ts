// Every export format of the registry, and v1's downloads, of datasets served from a two-shard
// ClickHouse cluster, each held to the same dataset served from Parquet: the sample airports
// (points), Seattle weather (dates, no geometry) and earthquakes (points and shapes) loaded into
// the cluster and attached beside their Parquet copies. Deterministic formats answer the same
// bytes; the zipped ones (XLSX, shapefile) the same parts, but for their dates of writing; Parquet
// the same rows and column types read back with DuckDB. No request answers a 500.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { DATASET_EXPORT_FORMATS, type DatasetExportFormat } from '../../src/exports/formats.js';
import { startClickHouseCluster, type ClickHouseCluster } from '../helpers/clickhouse-cluster.js';
import { attachCopyOf, readOnlyUrl } from '../helpers/clickhouse-attached.js';
import { SAMPLE_PORTAL } from '../helpers/sample-portal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { duckRows } from '../exports/readers.js';

const v2 = '/api/explore/v2.1/catalog/datasets';

const DATASETS = ['airports', 'seattle-weather', 'earthquakes'] as const;

/** The parts of a zip file (Python's zipfile), by name, each part's bytes. */
async function zipParts(bytes: Buffer): Promise<Map<string, Buffer>> {
  const script = `
import base64, io, json, sys, zipfile
archive = zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read()))
print(json.dumps({n: base64.b64encode(archive.read(n)).decode() for n in archive.namelist()}))`;
  const child = execFile('/usr/bin/python3', ['-c', script], { maxBuffer: 256 << 20, encoding: 'buffer' });
  const output = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    child.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`zipfile ${code}`)),
    );
  });
  child.stdin!.end(bytes);
  const parts = JSON.parse((await output).toString('utf8')) as Record<string, string>;
  return new Map(Object.entries(parts).map(([name, data]) => [name, Buffer.from(data, 'base64')]));
}

/**
 * The parts of a zipped export without their dates of writing: XLSX's document properties are
 * left out, a dBASE file's date of last update (bytes 1-3) zeroed.
 */
async function zippedContent(bytes: Buffer, id: string): Promise<Record<string, string>> {
  const parts = await zipParts(bytes);
  const content: Record<string, string> = {};
  for (const [name, data] of parts) {
    if (name === 'docProps/core.xml') continue;
    if (name.endsWith('.dbf')) data.fill(0, 1, 4);
    content[named(name, id)] = name.endsWith('.xml')
      ? named(data.toString('utf8'), id)
      : data.toString('base64');
  }
  return content;
}

/** A text with the attached dataset's id written as its Parquet copy's. */
const named = (text: string, id: string): string => text.replaceAll(`${id}-ch`, id);

/** Parquet's rows and column types, read back with DuckDB. */
async function parquetContent(bytes: Buffer, dir: string): Promise<unknown> {
  const file = path.join(dir, `read-${Math.random().toString(36).slice(2)}.parquet`);
  await writeFile(file, bytes);
  try {
    return await duckRows(`read_parquet('${file}')`);
  } finally {
    await rm(file, { force: true });
  }
}

/** How a format's two answers are compared: their text (ids alike), their bytes, or what they hold. */
const COMPARED: Record<DatasetExportFormat, 'text' | 'bytes' | 'zip' | 'parquet' | 'arrow'> = {
  csv: 'text',
  fgb: 'bytes',
  geojson: 'text',
  gpx: 'text',
  json: 'text',
  jsonl: 'text',
  jsonld: 'text',
  kml: 'text',
  n3: 'text',
  ov2: 'bytes',
  parquet: 'parquet',
  rdfxml: 'text',
  shp: 'zip',
  turtle: 'text',
  xlsx: 'zip',
  // DuckDB's validity bitmaps hold ones past the last row: the bytes differ there.
  arrow: 'arrow',
};

/** What an export holds, as compared (the attached dataset's id written as the Parquet copy's). */
async function contentOf(
  format: DatasetExportFormat,
  body: Buffer,
  id: string,
  dir: string,
): Promise<unknown> {
  switch (COMPARED[format]) {
    case 'text':
      return named(body.toString('utf8'), id);
    case 'bytes':
      return body.toString('base64');
    case 'zip':
      return zippedContent(body, id);
    case 'parquet':
      return parquetContent(body, dir);
    case 'arrow': {
      const table = tableFromIPC(body);
      return {
        schema: table.schema.fields.map((f) => `${f.name}: ${String(f.type)}`),
        batches: table.batches.map((b) => b.numRows),
        rows: JSON.stringify(table.toArray(), (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
      };
    }
  }
}

describe('every export of datasets served from a two-shard ClickHouse cluster', function () {
  this.timeout(300_000);
  let dir: string;
  let portalDir: string;
  let cluster: ClickHouseCluster;
  let server: TestServer;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-ch-exports-'));
    cluster = await startClickHouseCluster(path.join(dir, 'cluster'), 2);
    portalDir = path.join(dir, 'portal');
    await mkdir(path.join(portalDir, 'datasets'), { recursive: true });
    await writeFile(path.join(portalDir, 'portal.json'), JSON.stringify({ title: 'Exports' }));
    const url = readOnlyUrl(cluster);
    for (const id of DATASETS) {
      await cp(path.join(SAMPLE_PORTAL, 'datasets', id), path.join(portalDir, 'datasets', id), {
        recursive: true,
      });
      await attachCopyOf(cluster, portalDir, id, url);
    }
    server = await startTestServer(portalDir, { cacheBytes: 0 });
  });
  after(async () => {
    await server?.close();
    await cluster?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** An answer's status and its body. */
  const answer = async (request: string): Promise<{ status: number; body: Buffer }> => {
    const response = await server.get(request);
    return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
  };

  /** Asks `request` of the Parquet dataset and of its attached copy; both answers. */
  const both = async (request: (id: string) => string, id: string) => {
    const [parquet, attached] = await Promise.all([id, `${id}-ch`].map((each) => answer(request(each))));
    expect(attached!.status, attached!.body.toString().slice(0, 300)).not.to.equal(500);
    expect(attached!.status, attached!.body.toString().slice(0, 300)).to.equal(parquet!.status);
    return { parquet: parquet!, attached: attached! };
  };

  /** Asks `request` of both datasets: the same status, the same content. */
  const sameAnswers = async (format: DatasetExportFormat, request: (id: string) => string, id: string) => {
    const { parquet, attached } = await both(request, id);
    if (parquet.status !== 200) {
      expect(named(attached.body.toString(), id)).to.equal(parquet.body.toString());
      return parquet.status;
    }
    const [expected, actual] = await Promise.all([
      contentOf(format, parquet.body, id, dir),
      contentOf(format, attached.body, id, dir),
    ]);
    expect(actual).to.deep.equal(expected);
    return parquet.status;
  };

  for (const id of DATASETS) {
    for (const format of DATASET_EXPORT_FORMATS) {
      it(`${id}: ${format} as the Parquet dataset's`, async () => {
        await sameAnswers(format, (each) => `${v2}/${each}/exports/${format}`, id);
      });
    }
    for (const format of ['csv', 'json', 'geojson'] as const) {
      it(`${id}: v1's ${format} download as the Parquet dataset's`, async () => {
        const status = await sameAnswers(
          format,
          (each) => `/api/records/1.0/download?dataset=${each}&format=${format}`,
          id,
        );
        expect(status).to.equal(200);
      });
    }
  }

  /** Exports with a selection, a filter, labels, groups and options, answered as the Parquet dataset's. */
  const SHAPED: readonly (readonly [string, string])[] = [
    [
      'airports',
      `csv?select=iata,geo_point_2d,latitude*2 as l&where=state='CA'&order_by=iata&delimiter=%09&quote_all=true`,
    ],
    ['airports', `geojson?select=name,geo_point_2d&where=state='TX'&use_labels=true`],
    ['airports', `json?select=state,count(*) as n,max(latitude) as lat&group_by=state&order_by=state`],
    ['airports', `kml?where=state='NV'`],
    ['airports', `xlsx?select=iata,latitude,geo_point_2d&where=state='OR'`],
    ['earthquakes', `geojson?select=title,mag,geo_shape&where=mag>4`],
    ['earthquakes', `jsonl?select=geo_shape,geo_point_2d,types&order_by=mag desc&limit=20`],
    ['earthquakes', `fgb?select=mag,geo_shape&where=mag>3`],
    ['seattle-weather', `csv?select=date,temp_max,temp_max/3 as third&where=weather='snow'`],
    // The geo functions on points, spelled for ClickHouse as DuckDB's.
    // Distances equal DuckDB's within a few units in the last place (atan for atan2): not written.
    [
      'airports',
      `csv?select=iata&where=within_distance(geo_point_2d, geom'POINT(-122.4 37.6)', 80km)&order_by=distance(geo_point_2d, geom'POINT(-122.4 37.6)')`,
    ],
    ['airports', `geojson?where=in_bbox(geo_point_2d, 40, -75, 42, -72)`],
    [
      'airports',
      `kml?where=intersects(geo_point_2d, geom'POLYGON((-125 32, -114 32, -114 42, -125 42, -125 32))') and state!='CA'`,
    ],
    [
      'airports',
      `csv?select=count(*) as n&where=geometry(geo_point_2d, geom'MULTIPOLYGON(((-10 -10, 10 -10, 10 10, -10 10, -10 -10)), ((-160 18, -154 18, -154 23, -160 23, -160 18)))', within)`,
    ],
    [
      'earthquakes',
      `jsonl?select=id&where=disjoint(geo_point_2d, geom'POLYGON((-125 32, -114 32, -114 42, -125 42, -125 32))')`,
    ],
  ];
  /** v1's geofilters on points, downloaded from both datasets. */
  const GEOFILTERS = [
    'geofilter.distance=37.6,-122.4,50000',
    'geofilter.polygon=(32,-125),(32,-114),(42,-114),(42,-125)',
    'geofilter.bbox=40,-75,42,-72',
  ];
  for (const filter of GEOFILTERS) {
    it(`airports: v1's geojson download with ${filter} as the Parquet dataset's`, async () => {
      const request = (each: string) => `/api/records/1.0/download?dataset=${each}&format=geojson&${filter}`;
      expect(await sameAnswers('geojson', request, 'airports')).to.equal(200);
    });
  }

  it('refuses a geo function on a geo_shape field with a 400 naming it', async () => {
    const where = encodeURIComponent(`within_distance(geo_shape, geom'POINT(-118 34)', 10km)`);
    const [parquet, attached] = await Promise.all(
      ['earthquakes', 'earthquakes-ch'].map((id) =>
        server.json(`${v2}/${id}/records?limit=1&where=${where}`),
      ),
    );
    expect(parquet!.status).to.equal(200);
    expect(attached!.status).to.equal(400);
    expect(attached!.body.message).to.match(
      /^within_distance\(\) on a geo_shape field is not available on this dataset's engine \(ClickHouse\)/,
    );
  });

  for (const [id, request] of SHAPED) {
    it(`${id}: ${request} as the Parquet dataset's`, async () => {
      const format = request.split('?')[0]! as DatasetExportFormat;
      expect(await sameAnswers(format, (each) => `${v2}/${each}/exports/${request}`, id)).to.equal(200);
    });
  }
});
