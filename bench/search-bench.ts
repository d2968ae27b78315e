// Full-text search at scale: index build and query times on 1M synthetic rows, and the index build of flights-3m.
//
// Run after a build: node dist/bench/search-bench.js [--rows 1000000] [--keep]
// Rows are made deterministically from the words of vega-datasets' movie titles and airport names.
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { Field } from '../src/catalog/schema.js';
import type { QuerySource } from '../src/odsql/source.js';
import { compileSearch } from '../src/odsql/dialect/duckdb/search-sql.js';
import type { SearchMode } from '../src/odsql/functions/search.js';
import { parquetViewSql } from '../src/engine/duckdb/engine.js';
import { buildSearchIndex } from '../src/search/build-index.js';
import { quoteString } from '../src/sql/quoting.js';

const DATA = path.resolve('node_modules/vega-datasets/data');

const textField = (name: string, multivalued = false): Field => ({
  name,
  label: name,
  type: 'text',
  description: null,
  annotations: multivalued ? { multivalued: [';'] } : {},
});

const FIELDS = [textField('title'), textField('place'), textField('tags', true)];

/** Queries of three terms: typos in the fuzzy terms, a prefix last; then a common word, and suggest. */
const QUERIES: [string, SearchMode][] = [
  ['lov nigt sta', 'search'],
  ['Amerikan dreams cit', 'search'],
  ['the man ret', 'search'],
  ['Intrnational airprt sa', 'search'],
  ['comedy warner spring', 'search'],
  ['lo st', 'suggest'],
];

async function time<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = process.hrtime.bigint();
  const result = await work();
  return [result, Number(process.hrtime.bigint() - start) / 1e6];
}

/**
 * data.parquet of `rows` records: a real movie title plus one more title word, an airport name and
 * its city, and 0-2 tags (a genre, a distributor). Picks are hashes of the row number.
 */
async function writeSynthetic(connection: DuckDBConnection, dir: string, rows: number): Promise<string> {
  const file = path.join(dir, 'data.parquet');
  const json = (name: string) => quoteString(path.join(DATA, name));
  await connection.run(`CREATE TEMP TABLE movies AS
    SELECT row_number() OVER () - 1 AS n, CAST("Title" AS VARCHAR) AS title, "Major Genre" AS genre, "Distributor" AS distributor
    FROM read_json(${json('movies.json')}) WHERE "Title" IS NOT NULL`);
  await connection.run(`CREATE TEMP TABLE airports AS
    SELECT row_number() OVER () - 1 AS n, name, city FROM read_csv(${json('airports.csv')})`);
  const count = async (table: string) =>
    Number((await connection.runAndReadAll(`SELECT count(*) FROM ${table}`)).getRowsJS()[0]![0]);
  const [movies, airports] = [await count('movies'), await count('airports')];
  await connection.run(`COPY (
    SELECT printf('r%08d', i) AS _recordid,
      m.title || ' ' || split_part(w.title, ' ', 1) AS title,
      a.name || ', ' || a.city AS place,
      list_slice(list_filter([m.genre, m.distributor], lambda x: x IS NOT NULL), 1, (i % 3)::INTEGER) AS tags
    FROM range(${rows}) r(i)
    JOIN movies m ON m.n = hash(i, 1) % ${movies}
    JOIN movies w ON w.n = hash(i, 2) % ${movies}
    JOIN airports a ON a.n = hash(i, 3) % ${airports}
    ORDER BY i
  ) TO ${quoteString(file)} (FORMAT parquet)`);
  return file;
}

async function benchSynthetic(connection: DuckDBConnection, dir: string, rows: number): Promise<void> {
  const [, writeMs] = await time(() => writeSynthetic(connection, dir, rows));
  const [indexFile, buildMs] = await time(() => buildSearchIndex(connection, dir, FIELDS));
  const size = (await stat(indexFile!)).size;
  console.log(`synthetic ${rows} rows: data written in ${writeMs.toFixed(0)} ms`);
  console.log(`  index built in ${buildMs.toFixed(0)} ms (${(size / 2 ** 20).toFixed(1)} MiB)`);
  await connection.run(parquetViewSql('ds', path.join(dir, 'data.parquet'), 'dataset'));
  await connection.run(parquetViewSql('ds__search', indexFile!, 'plain'));
  for (const [text, mode] of QUERIES) {
    const indexed: QuerySource = { table: 'ds', searchTable: 'ds__search', fields: FIELDS };
    const scanned: QuerySource = { ...indexed, searchTable: null };
    const count = async (source: QuerySource) => {
      const sql = `SELECT count(*) FROM ds WHERE ${compileSearch(source, '*', text, mode).condition}`;
      const reader = await connection.runAndReadAll(sql);
      return Number(reader.getRowsJS()[0]![0]);
    };
    await count(indexed); // warm the file cache
    const runs: number[] = [];
    let hits = 0;
    for (let k = 0; k < 3; k++) {
      const [n, ms] = await time(() => count(indexed));
      [hits, runs[k]] = [n, ms];
    }
    const [scanHits, scanMs] = await time(() => count(scanned));
    console.log(
      `  ${mode}(*, '${text}'): ${hits} hits, index ${Math.min(...runs).toFixed(0)} ms (best of 3); no index ${scanMs.toFixed(0)} ms (${scanHits} hits)`,
    );
  }
}

async function benchFlights(connection: DuckDBConnection, dir: string): Promise<void> {
  const flightsDir = path.join(dir, 'flights');
  await mkdir(flightsDir);
  await connection.run(`COPY (SELECT printf('f%08d', row_number() OVER ()) AS _recordid, * FROM read_parquet(${quoteString(path.join(DATA, 'flights-3m.parquet'))}))
    TO ${quoteString(path.join(flightsDir, 'data.parquet'))} (FORMAT parquet)`);
  const [, ms] = await time(() =>
    buildSearchIndex(connection, flightsDir, [textField('origin'), textField('destination')]),
  );
  console.log(`flights-3m (origin, destination): index built in ${ms.toFixed(0)} ms`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { rows: { type: 'string', default: '1000000' }, keep: { type: 'boolean', default: false } },
  });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-search-bench-'));
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    console.log(`DuckDB, ${os.cpus().length} CPUs, work dir ${dir}`);
    await benchSynthetic(connection, dir, Number(values.rows));
    await benchFlights(connection, dir);
  } finally {
    connection.closeSync();
    instance.closeSync();
    if (!values.keep) await rm(dir, { recursive: true, force: true });
  }
}

await main();
