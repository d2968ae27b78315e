// Exports DuckDB writes itself (csv, json, jsonl, parquet), read back by a plain DuckDB: row
// counts and values, the CSV options, use_labels, gzip, errors before the first byte, and a
// client leaving mid-export.
import { expect } from 'chai';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { openPipes, pipeBuffers } from '../../src/engine/duckdb/copy-stream.js';
import { useSampleSuite } from '../helpers/sample-portal.js';

const EXPORTS = '/api/explore/v2.1/catalog/datasets';

describe('exports written by DuckDB (sample portal)', () => {
  const suite = useSampleSuite();
  let dir: string;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-exports-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** Downloads an export into a file; returns its path and the response. */
  const download = async (dataset: string, format: string, params: Record<string, string> = {}) => {
    const response = await suite.server.get(
      `${EXPORTS}/${dataset}/exports/${format}?${new URLSearchParams(params)}`,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    const file = path.join(dir, `${dataset}-${Object.keys(params).join('-')}.${format}`);
    await writeFile(file, bytes);
    return { response, bytes, file: file.replaceAll("'", "''") };
  };

  it('exports all 3,000,000 flights as Parquet with the stored values', async () => {
    const { response, file } = await download('flights', 'parquet');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-disposition')).to.equal('attachment; filename="flights.parquet"');
    const [read] = await suite.reference.rows(
      `SELECT count(*)::INTEGER AS n, sum(delay)::BIGINT AS delays, min(date)::VARCHAR AS first FROM '${file}'`,
    );
    const [source] = await suite.reference.rows(
      'SELECT count(*)::INTEGER AS n, sum(delay)::BIGINT AS delays, min(date)::VARCHAR AS first FROM flights',
    );
    expect(read).to.deep.equal(source);
  });

  it('streams all 3,000,000 flights as CSV through a few buffers used again, every row intact', async () => {
    const before = pipeBuffers.allocated;
    const { response, bytes, file } = await download('flights', 'csv', { with_bom: 'false' });
    expect(response.status).to.equal(200);
    // 124 MB in reads of up to 256 KiB: about 500 chunks, through the 4 the stream holds and a few
    // in the socket's hands (7 measured).
    expect(bytes.length).to.be.above(100e6);
    expect(pipeBuffers.allocated - before).to.be.at.most(12);
    const digest = `count(*)::INTEGER AS n, bit_xor(hash(origin, destination, delay, distance))::VARCHAR AS h`;
    const [read] = await suite.reference.rows(
      `SELECT ${digest} FROM read_csv('${file}', delim=';', header=true)`,
    );
    const [source] = await suite.reference.rows(`SELECT ${digest} FROM flights`);
    expect(read).to.deep.equal(source);
  });

  it('exports CSV with a BOM, ; by default, points as "lat, lon", and reads back exactly', async () => {
    const { bytes, file } = await download('airports', 'csv');
    expect([...bytes.subarray(0, 3)]).to.deep.equal([0xef, 0xbb, 0xbf]);
    const [read] = await suite.reference.rows(
      `SELECT count(*)::INTEGER AS n, count(DISTINCT iata)::INTEGER AS ids FROM read_csv('${file}', delim=';', header=true)`,
    );
    expect(read).to.deep.equal({ n: 3376, ids: 3376 });
    const [sfo] = await suite.reference.rows(
      `SELECT name, geo_point_2d FROM read_csv('${file}', delim=';', header=true, all_varchar=true) WHERE iata = 'SFO'`,
    );
    expect(sfo).to.deep.equal({
      name: 'San Francisco International',
      geo_point_2d: '37.61900194, -122.3748433',
    });
  });

  it('applies every CSV option: delimiter, list_separator, quote_all, with_bom, use_labels', async () => {
    const { bytes } = await download('movies', 'csv', {
      delimiter: '|',
      list_separator: '+',
      quote_all: 'true',
      with_bom: 'false',
      use_labels: 'true',
      select: 'title, major_genre',
      where: "title = 'Titanic'",
    });
    const lines = bytes.toString('utf8').trim().split('\n');
    expect(lines[0]).to.equal('"Title"|"Genres"');
    expect(lines.slice(1)).to.have.length(1);
    expect(lines[1]).to.match(/^"Titanic"\|"[A-Za-z+ ]+"$/);
  });

  it('filters, groups and orders with the common parameters, refine included', async () => {
    const { file } = await download('flights', 'jsonl', {
      select: 'origin, count(*) as n',
      group_by: 'origin',
      order_by: 'n desc',
      refine: 'destination:JFK',
      limit: '5',
    });
    const rows = await suite.reference.rows(`SELECT origin, n::INTEGER AS n FROM read_json('${file}')`);
    const expected = await suite.reference.rows(
      `SELECT origin, count(*)::INTEGER AS n FROM flights WHERE destination = 'JFK'
       GROUP BY origin ORDER BY n DESC, origin LIMIT 5`,
    );
    expect(rows).to.deep.equal(expected);
  });

  it('writes JSON values in the shapes of the record API', async () => {
    const { bytes } = await download('earthquakes', 'json', {
      select: 'id, geo_point_2d, geo_shape, types',
      where: "id = 'ci37868143'",
      timezone: 'Europe/Paris',
    });
    const [quake] = JSON.parse(bytes.toString('utf8'));
    expect(quake.geo_point_2d).to.have.keys(['lon', 'lat']);
    expect(quake.geo_shape).to.include({ type: 'Feature' });
    expect(quake.types).to.be.an('array').that.includes('origin');
  });

  it('gzips on compressed=true', async () => {
    const { response, bytes } = await download('seattle-weather', 'csv', {
      compressed: 'true',
      with_bom: 'false',
    });
    expect(response.headers.get('content-type')).to.equal('application/gzip');
    expect(response.headers.get('content-disposition')).to.include('seattle-weather.csv.gz');
    expect(gunzipSync(bytes).toString('utf8').trim().split('\n')).to.have.length(1462);
  });

  it('answers a bad query or format with a JSON 400 before any byte', async () => {
    const bad = await suite.server.json(
      `${EXPORTS}/flights/exports/csv?where=${encodeURIComponent('nope > 1')}`,
    );
    expect(bad.status).to.equal(400);
    expect(bad.body.error_code).to.equal('QueryLangError');
    const format = await suite.server.json(`${EXPORTS}/flights/exports/doc`);
    expect(format.status).to.equal(400);
    expect(
      (await suite.server.json(`${EXPORTS}/flights/exports/csv?parquet_compression=lz4`)).status,
    ).to.equal(400);
  });

  it('stops the query and removes its pipe when the client goes away mid-export', async () => {
    const url = new URL(`${suite.server.base}${EXPORTS}/flights/exports/csv`);
    await new Promise<void>((resolve, reject) => {
      const request = http.get(url, (response) => {
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > 1 << 20) {
            request.destroy();
            resolve();
          }
        });
        response.on('error', () => undefined);
      });
      request.on('error', (error) => (error.message.includes('aborted') ? undefined : reject(error)));
    });
    for (let i = 0; i < 100 && openPipes.size > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(openPipes.size).to.equal(0);
    const spill = suite.server.portal.services.engine.tempDirectory;
    expect((await readdir(spill)).filter((f) => f.endsWith('.pipe'))).to.deep.equal([]);
    // The connection came back to the pool: eight queries at once all answer.
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => suite.server.json(`${EXPORTS}/flights/records?limit=0`)),
    );
    expect(answers.every((a) => a.body.total_count === 3_000_000)).to.equal(true);
  });
});
