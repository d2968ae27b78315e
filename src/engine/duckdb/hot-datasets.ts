// Datasets asked often copied into DuckDB's memory, compressed, under a budget: the view of a
// dataset asked HOT_USES times is redefined over a table of its rows in an in-memory database
// that compresses (`ATTACH ':memory:' AS hot (COMPRESS)`), so its queries decompress no Parquet
// page. The bench's 10-row page of the 3M flights ran 2.2-2.7 ms in DuckDB from the file (its
// date page alone 663 KB of LZ4) and 0.4-0.5 ms from the table, which holds all 3M rows in 60-67
// MiB (docs/access-control.md, Memory). Only a pinned file (never changed under its path) is
// copied, so a copy never goes stale; the copy is the view's own rows, ordinals included.
import type { DuckDBConnection } from '@duckdb/node-api';
import { stat } from 'node:fs/promises';
import { ORDINAL_COLUMN } from '../../catalog/schema.js';
import { quoteIdentifier } from '../../sql/quoting.js';
import { limitBytes } from './small-tables.js';
import { parquetViewSql } from './views.js';

/** The in-memory database the copies live in, attached at start. */
export const HOT_DATABASE = 'hot';

/** Uses of a dataset (requests that open it) before it is copied, and again at each multiple while it does not fit. */
export const HOT_USES = 8;

/** A copy unused this long may make room for a dataset asked now; one used since stays. */
export const HOT_IDLE_MS = 60_000;

/** A quarter of DuckDB's memory limit (96 MB of the default 384MB). */
export const HOT_SHARE = 4;

/** The budget when DuckDB is given no memory limit (a quarter of the server's default). */
export const DEFAULT_HOT_BYTES = 96 * 1024 * 1024;

/**
 * Rows copied at a time, each slice compressed (CHECKPOINT) before the next: copied whole, the
 * flights' 3M rows took 282 MB uncompressed before their checkpoint, in slices of this size 98.
 */
const SLICE_ROWS = 491_520;

/** The budget for a memory limit as DuckDB's setting writes it. */
export function hotBudget(memoryLimit: string | undefined): number {
  const limit = limitBytes(memoryLimit);
  return limit === null ? DEFAULT_HOT_BYTES : limit / HOT_SHARE;
}

/** A dataset view over a pinned Parquet file, and its copy when held. */
interface Candidate {
  readonly path: string;
  uses: number;
  lastUse: number;
  /** The copy's table in HOT_DATABASE and the bytes it took, once held. */
  held: { readonly table: string; readonly bytes: number } | null;
  /** The bytes of a copy made and dropped for not fitting (the file's size is the estimate until then). */
  measured: number | null;
  /** A copy failed: this version is read from its file, and never copied again. */
  failed: boolean;
}

/**
 * What the copies need of the engine: a connection of their own, and telling it a view now reads
 * other storage (its kept statements are forgotten; its counts stay true: the rows are the same).
 */
export interface HotHost {
  connect(): Promise<DuckDBConnection>;
  storageChanged(): void;
}

export class HotDatasets {
  private readonly candidates = new Map<string, Candidate>();
  /** The candidates whose copy is held: a few, where the candidates are every dataset of the portals. */
  private readonly holding = new Map<string, Candidate>();
  /** Swaps of a view, in order: a copy never replaces a view defined or dropped after it began. */
  private chain: Promise<unknown> = Promise.resolve();
  private loading: Promise<void> | null = null;
  /** The connection copying now, interrupted by `stop`. */
  private copying: DuckDBConnection | null = null;
  private stopped = false;
  private serial = 0;
  /** Copies begun and made since the start, and the last that failed (the dataset is then read from its file). */
  attempts = 0;
  copies = 0;
  lastFailure: string | null = null;

  constructor(
    private readonly budgetBytes: number,
    private readonly host: HotHost,
    private readonly now: () => number = Date.now,
  ) {}

  /** Runs `work` alone among the views' swaps (defines and drops of dataset views take it too). */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Bytes of DuckDB's memory the copies hold. */
  get bytes(): number {
    let bytes = 0;
    for (const candidate of this.holding.values()) bytes += candidate.held?.bytes ?? 0;
    return bytes;
  }

  /** Whether `name` is served from its copy. */
  holds(name: string): boolean {
    return this.candidates.get(name)?.held != null;
  }

  /** The copy in progress, if any (for tests). */
  settled(): Promise<void> {
    return this.loading ?? Promise.resolve();
  }

  /**
   * `name` is (again) a view, over the pinned file `path` when given (a candidate): its old copy,
   * if any, is dropped. Runs within `exclusive`, after the view was redefined.
   */
  async redefined(connection: DuckDBConnection, name: string, path: string | null): Promise<void> {
    const before = this.candidates.get(name);
    this.candidates.delete(name);
    this.holding.delete(name);
    if (path !== null)
      this.candidates.set(name, {
        path,
        uses: 0,
        lastUse: this.now(),
        held: null,
        measured: null,
        failed: false,
      });
    if (before?.held) await dropCopy(connection, before.held.table);
  }

  /** A request asked for dataset view `name`: at its HOT_USES-th use (and each multiple), it is copied if it fits. */
  used(name: string): void {
    const candidate = this.candidates.get(name);
    if (!candidate) return;
    candidate.lastUse = this.now();
    if (candidate.held || candidate.failed || ++candidate.uses % HOT_USES !== 0) return;
    if (this.loading || this.stopped) return;
    this.loading = this.copy(name, candidate)
      .catch((error: unknown) => {
        candidate.failed = true;
        this.lastFailure = `${name}: ${String(error)}`;
      })
      .finally(() => (this.loading = null));
  }

  /** The engine closes: a copy running is interrupted, and none begins. */
  stop(): void {
    this.stopped = true;
    this.copying?.interrupt();
  }

  /** Copies `name`'s rows into memory when they fit, and swaps its view over the copy. */
  private async copy(name: string, candidate: Candidate): Promise<void> {
    if (!(await this.room(candidate.measured ?? (await stat(candidate.path)).size))) return;
    const table = `${HOT_DATABASE}.${quoteIdentifier(`${name}#${++this.serial}`)}`;
    const connection = await this.host.connect();
    this.copying = connection;
    this.attempts++;
    try {
      let swapped = false;
      try {
        await copyRows(connection, name, table);
        // The database's memory less the other copies' (a copy dropped meanwhile left both).
        const bytes = Math.max(0, (await databaseBytes(connection)) - this.bytes);
        const fits = this.bytes + bytes <= this.budgetBytes;
        if (!fits) candidate.measured = bytes;
        swapped = fits && (await this.exclusive(() => this.swap(connection, name, candidate, table, bytes)));
      } finally {
        if (!swapped) await dropCopy(connection, table);
      }
      if (swapped) this.copies++;
    } finally {
      this.copying = null;
      connection.closeSync();
    }
  }

  /** Redefines `name` over its copy, unless it was redefined or dropped meanwhile. */
  private async swap(
    connection: DuckDBConnection,
    name: string,
    candidate: Candidate,
    table: string,
    bytes: number,
  ): Promise<boolean> {
    if (this.candidates.get(name) !== candidate) return false;
    await connection.run(`CREATE OR REPLACE VIEW ${quoteIdentifier(name)} AS SELECT * FROM ${table}`);
    candidate.held = { table, bytes };
    this.holding.set(name, candidate);
    this.host.storageChanged();
    return true;
  }

  /**
   * Whether `bytes` (a file's size: the copies measured 0.7-0.95 of it) fit the budget, once the
   * copies idle for HOT_IDLE_MS are dropped, least recently used first, as many as it takes.
   */
  private async room(bytes: number): Promise<boolean> {
    if (bytes > this.budgetBytes) return false;
    const idle = [...this.holding]
      .filter(([, candidate]) => this.now() - candidate.lastUse >= HOT_IDLE_MS)
      .sort(([, a], [, b]) => a.lastUse - b.lastUse);
    for (const [name, candidate] of idle) {
      if (this.bytes + bytes <= this.budgetBytes) break;
      await this.exclusive(() => this.evict(name, candidate));
    }
    return this.bytes + bytes <= this.budgetBytes;
  }

  /** Serves `name` from its file again and drops its copy. */
  private async evict(name: string, candidate: Candidate): Promise<void> {
    const held = candidate.held;
    if (this.candidates.get(name) !== candidate || !held) return;
    const connection = await this.host.connect();
    try {
      await connection.run(parquetViewSql(name, candidate.path, 'dataset'));
      candidate.held = null;
      this.holding.delete(name);
      this.host.storageChanged();
      await dropCopy(connection, held.table);
    } finally {
      connection.closeSync();
    }
  }
}

/**
 * Copies the rows of view `name` into `table`, in slices of its ordinals, each compressed before
 * the next; throws when the copy does not hold every row (ordinals not 1 to n).
 */
export async function copyRows(connection: DuckDBConnection, name: string, table: string): Promise<void> {
  const view = quoteIdentifier(name);
  const ordinal = quoteIdentifier(ORDINAL_COLUMN);
  const total = Number(await firstValue(connection, `SELECT count(*) FROM ${view}`));
  await connection.run(`CREATE TABLE ${table} AS SELECT * FROM ${view} LIMIT 0`);
  for (let first = 1; first <= total; first += SLICE_ROWS) {
    await connection.run(
      `INSERT INTO ${table} SELECT * FROM ${view} WHERE ${ordinal} >= ${first} AND ${ordinal} < ${first + SLICE_ROWS}`,
    );
    await connection.run(`CHECKPOINT ${HOT_DATABASE}`);
  }
  const copied = Number(await firstValue(connection, `SELECT count(*) FROM ${table}`));
  if (copied !== total) throw new Error(`copied ${copied} of ${total} rows`);
}

/** Drops a copy and compresses what is left (DuckDB gives the copy's memory back then). */
async function dropCopy(connection: DuckDBConnection, table: string): Promise<void> {
  await connection.run(`DROP TABLE IF EXISTS ${table}`);
  await connection.run(`CHECKPOINT ${HOT_DATABASE}`);
}

/** Bytes of memory the copies' database takes, as DuckDB reports it ('67.0 MiB'). */
async function databaseBytes(connection: DuckDBConnection): Promise<number> {
  const sql = `SELECT memory_usage FROM pragma_database_size() WHERE database_name = '${HOT_DATABASE}'`;
  return Math.round(limitBytes(String(await firstValue(connection, sql))) ?? 0);
}

/** The first value of a statement's first row. */
async function firstValue(connection: DuckDBConnection, sql: string): Promise<unknown> {
  return (await (await connection.run(sql)).getRows())[0]?.[0] ?? null;
}
