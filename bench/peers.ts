// The engines users would otherwise pick, loaded with the same rows: PostgreSQL 15 (CKAN's
// DataStore) on a private port in a temp dir, and SQLite (Datasette). Each answers the same
// questions in its own dialect, in one open session of its own client, timed by that client's own
// timer, in turns with duckportal answering over HTTP.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { LineChild } from '../src/line-child.js';
import { AGGREGATIONS, recordQuery } from './aggregations.js';
import {
  inRounds,
  measuredRatio,
  median,
  ratioWantsAnotherTurn,
  timeMs,
  wantsAnotherTurn,
  type MeasuredRatio,
  type ServedPortal,
} from './harness.js';

const PG_BIN = '/usr/lib/postgresql/15/bin';
const PG_PORT = '54329';

/** One peer engine with flights loaded and a session of its client open. */
export interface Peer {
  readonly name: string;
  readonly dialect: 'postgres' | 'sqlite';
  /** Runs one statement in the session; its time in milliseconds by the client's own timer. */
  time(sql: string): Promise<number>;
  stop(): Promise<void>;
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

/** The line a session's client prints after each statement (and once after its setup). */
const DONE = 'duckportal-bench-done';

/** A peer's client: its command line, and its input for one statement, which ends by printing DONE. */
interface Client {
  readonly command: string;
  readonly args: readonly string[];
  /** Sent once, first (its timer on). */
  readonly setup: string;
  readonly statement: (sql: string) => string;
}

/**
 * An interactive session of a peer's client: a statement in, then the client's command that
 * prints DONE; what it printed in between is the timer line, or else an error. The client runs
 * under `stdbuf -oL`, or its lines would wait in a full stdout buffer, and its stderr goes to the
 * same pipe, so that an error comes before DONE. It stops at the first error (the caller's
 * options), which fails the statements still waiting.
 */
class Session {
  private readonly child: LineChild;

  constructor(private readonly client: Client) {
    const { command, args, setup, statement } = client;
    this.child = new LineChild('sh', ['-c', 'exec "$@" 2>&1', 'sh', 'stdbuf', '-oL', command, ...args], {
      name: command,
      endLine: DONE,
    });
    // The setup's answer is not read: a failure there fails the first statement.
    this.child.ask(`${setup}${statement('SELECT 1')}`).catch(() => undefined);
  }

  /** Runs one statement; resolves to the line it printed, which must match `timer`. */
  async run(sql: string, timer: RegExp): Promise<RegExpExecArray> {
    const lines = await this.child.ask(this.client.statement(sql.replace(/\s+/g, ' ').trim()));
    const match = lines.length === 1 ? timer.exec(lines[0]!) : null;
    if (!match) throw new Error(`${this.client.command}: ${lines.join('\n')}`);
    return match;
  }

  close(): Promise<void> {
    return this.child.close();
  }
}

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
  const connection = ['-h', dir, '-p', PG_PORT, '-U', 'bench', '-d', 'postgres', '-v', 'ON_ERROR_STOP=1'];
  execFileSync('psql', [...connection, '-o', '/dev/null'], {
    input: `CREATE TABLE flights (date timestamptz, delay integer, distance integer, origin text, destination text);
     COPY flights FROM '${csv}' WITH (FORMAT csv, HEADER true); VACUUM ANALYZE flights;`,
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  const session = new Session({
    command: 'psql',
    args: [...connection, '-q', '-o', '/dev/null'],
    setup: '\\timing on\n',
    statement: (sql) => `${sql};\n\\echo ${DONE}\n`,
  });
  return {
    name: 'PostgreSQL 15',
    dialect: 'postgres',
    time: async (sql) => Number((await session.run(sql, /^Time: ([\d.]+) ms/))[1]),
    stop: async () => {
      await session.close();
      asPostgres('pg_ctl', ['-D', data, '-w', 'stop', '-m', 'fast']);
    },
  };
}

function startSqlite(dir: string, csv: string): Peer {
  const db = path.join(dir, 'flights.sqlite');
  execFileSync('sqlite3', ['-bail', db], {
    input: [
      'CREATE TABLE flights (date TEXT, delay INTEGER, distance INTEGER, origin TEXT, destination TEXT);',
      `.import --csv --skip 1 ${csv} flights`,
      'ANALYZE;',
    ].join('\n'),
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  // `.once`, not `.output`: the rows of the next statement only, or DONE would not be printed.
  const session = new Session({
    command: 'sqlite3',
    args: ['-bail', db],
    setup: '.timer on\n',
    statement: (sql) => `.once /dev/null\n${sql};\n.print ${DONE}\n`,
  });
  return {
    name: 'SQLite',
    dialect: 'sqlite',
    time: async (sql) => Number((await session.run(sql, /^Run Time: real ([\d.]+)/))[1]) * 1000,
    stop: () => session.close(),
  };
}

/** Starts both peers with flights loaded; `workDir` holds their files and is the caller's to remove. */
export async function startPeers(duckdb: DuckDBConnection, workDir: string): Promise<Peer[]> {
  ensurePackages();
  mkdirSync(workDir, { recursive: true });
  writeFileSync(path.join(workDir, 'README'), 'duckportal bench peers: removed after the run\n');
  const csv = await flightsCsv(duckdb, workDir);
  const postgres = startPostgres(workDir, csv);
  try {
    return [postgres, startSqlite(workDir, csv)];
  } catch (error) {
    await postgres.stop();
    throw error;
  }
}

/** A peer's time for one aggregation, duckportal's beside it, and the median of their turns' ratios. */
export interface PeerTime extends MeasuredRatio {
  readonly peerMs: number;
  readonly httpMs: number;
}

/**
 * HTTP requests in each turn of a peer's timing: HTTP_WARMING untimed (right after a peer, the
 * first two or three answers took up to twice the steady time), then at least three timed, and
 * more of the quick ones, up to HTTP_MEASURING_MS or 15: the turn's time is their median. A 20 ms
 * answer right after SQLite took 17-38 ms, so three of them left the turn's ratio as noisy as the
 * peer's own time.
 */
const HTTP_WARMING = 2;
const HTTP_MEASURING_MS = 300;

/**
 * Pause after a peer's statement before duckportal's requests: a peer holds both cores for
 * 0.1-3 s, and answers timed 50 ms after it moved by up to 50% between runs (at most 8% away).
 */
const SETTLE_MS = 250;

/**
 * Wall time of a peer's table (its turns whole, pauses included) after which no ratio takes
 * another turn. A turn of SQLite's heavier questions takes about 2 s and, their times spreading
 * by 10-15% from one turn to the next, some 20 turns to be known to ±7%. A round of PostgreSQL's
 * eight takes about 11 s: 140 s stopped its noisiest ratios at their 12th turn, known to ±9-13%
 * (run 27); the rounds after the 12th are of those only, about 5 s each.
 */
const PEER_MEASURING_MS = 200_000;

/**
 * Each aggregation the peer's SQL can ask, on the peer and over HTTP in turns (the statement in
 * the peer's warm session, a pause, then the HTTP requests), the cases in rounds until each ratio
 * is known (ratioWantsAnotherTurn). Null where the peer cannot ask the question.
 */
export async function benchPeer(
  peer: Peer,
  served: ServedPortal,
  runs: number,
): Promise<(PeerTime | null)[]> {
  const cases = AGGREGATIONS.map((c) => {
    const sql = c[peer.dialect];
    return sql === undefined
      ? null
      : {
          sql,
          http: recordQuery(served, c.dataset, c.params),
          turns: [] as { peerMs: number; httpMs: number }[],
        };
  });
  const timed = cases.filter((c) => c !== null);
  for (const c of timed) {
    await peer.time(c.sql);
    await c.http();
  }
  const ratios = (c: (typeof timed)[number]): number[] => c.turns.map((t) => t.peerMs / t.httpMs);
  let spent = 0;
  await inRounds(
    timed,
    (c) => ratioWantsAnotherTurn(ratios(c), runs, spent < PEER_MEASURING_MS),
    async (c) => {
      spent += await timeMs(async () => {
        const peerMs = await peer.time(c.sql);
        await delay(SETTLE_MS);
        for (let i = 0; i < HTTP_WARMING; i++) await c.http();
        const httpTimes: number[] = [];
        for (let measured = 0; wantsAnotherTurn(httpTimes.length, measured, 3, HTTP_MEASURING_MS, 15);) {
          httpTimes.push(await timeMs(c.http));
          measured += httpTimes.at(-1)!;
        }
        c.turns.push({ peerMs, httpMs: median(httpTimes) });
      });
    },
  );
  return cases.map((c) =>
    c === null
      ? null
      : {
          peerMs: median(c.turns.map((t) => t.peerMs)),
          httpMs: median(c.turns.map((t) => t.httpMs)),
          ...measuredRatio(ratios(c)),
        },
  );
}
