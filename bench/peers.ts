// The engines users would otherwise pick, loaded with the same rows: PostgreSQL 15 (CKAN's
// DataStore) on a private port in a temp dir, and SQLite (Datasette). Each times the same
// questions in its own dialect, server-side, with its own client's timer.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { median } from './harness.js';

const PG_BIN = '/usr/lib/postgresql/15/bin';
const PG_PORT = '54329';

/** One peer engine: times each statement (median of `runs` after a warm-up), or null if missing. */
export interface Peer {
  readonly name: string;
  time(sqls: readonly string[], runs: number): number[];
  stop(): void;
}

/** Installs PostgreSQL 15 and SQLite from Debian when absent (the bench's only system step). */
function ensurePackages(): void {
  const missing = [
    ...(existsSync(`${PG_BIN}/initdb`) ? [] : ['postgresql-15']),
    ...(spawnSync('sqlite3', ['--version']).status === 0 ? [] : ['sqlite3']),
  ];
  if (missing.length === 0) return;
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { stdio: 'ignore' });
}

/** Each statement run 1 + `runs` times in one client session; the timer lines give the times. */
function timesOf(output: string, pattern: RegExp, statements: number, runs: number, scale: number): number[] {
  const times = [...output.matchAll(pattern)].map((m) => Number(m[1]) * scale);
  if (times.length !== statements * (runs + 1))
    throw new Error(`peer timing: ${times.length} timings in\n${output}`);
  return Array.from({ length: statements }, (_, i) =>
    median(times.slice(i * (runs + 1) + 1, (i + 1) * (runs + 1))),
  );
}

const repeatAll = (sqls: readonly string[], runs: number): string =>
  sqls
    .flatMap((sql) => Array.from({ length: runs + 1 }, () => `${sql.replace(/\s+/g, ' ').trim()};`))
    .join('\n');

/** Writes the flights table as CSV with DuckDB, for both peers to load. */
async function flightsCsv(duckdb: DuckDBConnection, dir: string): Promise<string> {
  const file = path.join(dir, 'flights.csv');
  await duckdb.run(
    `COPY (SELECT strftime(date, '%Y-%m-%d %H:%M:%S+00') AS date, delay, distance, origin, destination FROM flights) TO '${file}' (HEADER, DELIMITER ',')`,
  );
  return file;
}

function startPostgres(dir: string, csv: string): Peer {
  const data = path.join(dir, 'pg');
  mkdirSync(data, { recursive: true });
  execFileSync('chown', ['-R', 'postgres', dir]);
  const asPostgres = (command: string, args: string[]) =>
    execFileSync('runuser', ['-u', 'postgres', '--', `${PG_BIN}/${command}`, ...args], { stdio: 'ignore' });
  asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'bench']);
  asPostgres('pg_ctl', [
    '-D',
    data,
    '-l',
    path.join(dir, 'pg.log'),
    '-w',
    'start',
    '-o',
    `-p ${PG_PORT} -k ${dir} -c listen_addresses='' -c shared_buffers=2GB -c work_mem=256MB -c max_parallel_workers_per_gather=2`,
  ]);
  const psql = (input: string): string =>
    execFileSync(
      'psql',
      ['-h', dir, '-p', PG_PORT, '-U', 'bench', '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-o', '/dev/null'],
      {
        input,
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      },
    );
  psql(
    `CREATE TABLE flights (date timestamptz, delay integer, distance integer, origin text, destination text);
     COPY flights FROM '${csv}' WITH (FORMAT csv, HEADER true); VACUUM ANALYZE flights;`,
  );
  return {
    name: 'PostgreSQL 15',
    time: (sqls, runs) =>
      timesOf(psql(`\\timing on\n${repeatAll(sqls, runs)}`), /^Time: ([\d.]+) ms/gm, sqls.length, runs, 1),
    stop: () => asPostgres('pg_ctl', ['-D', data, '-w', 'stop', '-m', 'fast']),
  };
}

function startSqlite(dir: string, csv: string): Peer {
  const db = path.join(dir, 'flights.sqlite');
  const sqlite = (input: string): string =>
    execFileSync('sqlite3', [db], { input, encoding: 'utf8', maxBuffer: 1 << 26 });
  sqlite(
    [
      'CREATE TABLE flights (date TEXT, delay INTEGER, distance INTEGER, origin TEXT, destination TEXT);',
      `.import --csv --skip 1 ${csv} flights`,
      'ANALYZE;',
    ].join('\n'),
  );
  return {
    name: 'SQLite',
    time: (sqls, runs) =>
      timesOf(
        sqlite(`.timer on\n.output /dev/null\n${repeatAll(sqls, runs)}`),
        /^Run Time: real ([\d.]+)/gm,
        sqls.length,
        runs,
        1000,
      ),
    stop: () => undefined,
  };
}

/** Starts both peers with flights loaded; `workDir` holds their files and is the caller's to remove. */
export async function startPeers(duckdb: DuckDBConnection, workDir: string): Promise<Peer[]> {
  ensurePackages();
  mkdirSync(workDir, { recursive: true });
  writeFileSync(path.join(workDir, 'README'), 'duckportal bench peers: removed after the run\n');
  const csv = await flightsCsv(duckdb, workDir);
  return [startPostgres(workDir, csv), startSqlite(workDir, csv)];
}
