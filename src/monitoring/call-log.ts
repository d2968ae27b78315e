// The API calls kept as Parquet files in `<portal>/monitoring/`, written in batches off the request
// path: a call is pushed to a bounded buffer (nothing else happens while the request is answered),
// and the buffer is written as one file every few seconds or once it holds enough rows. Files
// past the retention are removed, and each day's files of this process are merged into one, so
// that a month of calls stays a few dozen files whichever replica wrote them.
import { randomBytes } from 'node:crypto';
import { readdir, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { ApiCall } from './dataset.js';

/** What writes the files (the engine's COPY, handed in by the server). */
export interface ParquetWriter {
  /** Writes `rows` (JSON array of objects) as the Parquet file `file`. */
  writeRows(file: string, rowsJson: string): Promise<void>;
  /** Writes the rows of every file of `files` as the Parquet file `file`. */
  merge(files: readonly string[], file: string): Promise<void>;
}

/** How calls are kept: the retention and the batching. */
export interface CallLogOptions {
  readonly days: number;
  /** Seconds between two writes of the buffer. */
  readonly flushSeconds: number;
  /** Rows that make the buffer written at once. */
  readonly flushRows: number;
  /** Rows the buffer may hold; past it, calls are counted as dropped rather than kept. */
  readonly maxRows: number;
}

export const DEFAULT_CALL_LOG: Omit<CallLogOptions, 'days'> = {
  flushSeconds: 10,
  flushRows: 5_000,
  maxRows: 50_000,
};

/** The file every query can read even before the first call: no rows, the dataset's columns. */
export const SCHEMA_FILE = 'schema.parquet';

const DAY_MS = 86_400_000;
/** `<newest call, epoch ms>-<process token>-<sequence>.parquet`; `m` marks a day merged. */
const FILE_NAME = /^(\d+)-([0-9a-f]+)-(m?)(\d+)\.parquet$/;

export class CallLog {
  private buffer: Record<string, unknown>[] = [];
  private writing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private sequence = 0;
  private lastTidy = 0;
  private readonly token = randomBytes(4).toString('hex');
  /** Record ids: 12 random hex digits drawn once, then a counter of 8 (no random draw per call). */
  private idPrefix = randomBytes(6).toString('hex');
  private idCounter = 0;
  /** Calls not kept because the buffer was full. */
  dropped = 0;

  constructor(
    readonly dir: string,
    private readonly writer: ParquetWriter,
    readonly options: CallLogOptions,
    private readonly warn: (message: string) => void,
  ) {}

  /** Starts writing every `flushSeconds` (the timer never keeps the process alive). */
  start(): void {
    this.timer = setInterval(() => void this.flush(), this.options.flushSeconds * 1000);
    this.timer.unref();
  }

  /** Keeps one call: pushed to the buffer, written later. */
  record(call: ApiCall): void {
    if (this.buffer.length >= this.options.maxRows) {
      this.dropped++;
      return;
    }
    const ordinal = Date.now() * 1000 + (this.buffer.length % 1000);
    this.buffer.push({ ...call, _recordid: this.nextRecordId(), _ordinal: ordinal });
    if (this.buffer.length === this.options.flushRows) void this.flush();
  }

  /** A record id of 20 hex digits, unique in this process, as unlikely as a random one to meet another's. */
  private nextRecordId(): string {
    if (this.idCounter === 0xffffffff) {
      this.idPrefix = randomBytes(6).toString('hex');
      this.idCounter = 0;
    }
    return this.idPrefix + (this.idCounter++).toString(16).padStart(8, '0');
  }

  /** Writes what the buffer holds now (after any write under way), then tidies at most hourly. */
  flush(now = new Date()): Promise<void> {
    const rows = this.buffer;
    this.buffer = [];
    this.writing = this.writing.then(async () => {
      if (rows.length > 0) await this.writeBatch(rows, now);
      if (this.dropped > 0) {
        this.warn(`monitoring: ${this.dropped} API calls not kept, the buffer was full`);
        this.dropped = 0;
      }
      if (now.getTime() - this.lastTidy >= 3_600_000) {
        this.lastTidy = now.getTime();
        await this.tidy(now);
      }
    });
    return this.writing;
  }

  /** Stops the timer (what the buffer holds then is not written: flush first). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private async writeBatch(rows: Record<string, unknown>[], now: Date): Promise<void> {
    const file = path.join(this.dir, `${now.getTime()}-${this.token}-${++this.sequence}.parquet`);
    try {
      // Written aside, then renamed: a query never globs a half-written file.
      await this.writer.writeRows(`${file}.tmp`, JSON.stringify(rows));
      await rename(`${file}.tmp`, file);
    } catch (error) {
      this.warn(`monitoring: ${rows.length} API calls not kept: ${(error as Error).message}`);
      await unlink(`${file}.tmp`).catch(() => undefined);
    }
  }

  /**
   * Removes every file whose newest call is past the retention (any process's), and merges the
   * files this process wrote on each day into one.
   */
  async tidy(now = new Date()): Promise<void> {
    const cutoff = now.getTime() - this.options.days * DAY_MS;
    const byDay = new Map<number, { name: string; newest: number }[]>();
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      const parts = FILE_NAME.exec(name);
      if (!parts) continue;
      const newest = Number(parts[1]);
      if (newest < cutoff) {
        await unlink(path.join(this.dir, name)).catch(() => undefined);
        continue;
      }
      if (parts[2] !== this.token) continue;
      const day = Math.floor(newest / DAY_MS);
      byDay.set(day, [...(byDay.get(day) ?? []), { name, newest }]);
    }
    for (const files of byDay.values()) if (files.length > 1) await this.mergeDay(files);
  }

  private async mergeDay(files: readonly { name: string; newest: number }[]): Promise<void> {
    const newest = Math.max(...files.map((f) => f.newest));
    const target = path.join(this.dir, `${newest}-${this.token}-m${++this.sequence}.parquet`);
    const sources = files.map((f) => path.join(this.dir, f.name));
    try {
      await this.writer.merge(sources, `${target}.tmp`);
      await rename(`${target}.tmp`, target);
      // A query that listed the folder an instant before may miss a source: see docs/operating.md.
      for (const source of sources) await unlink(source).catch(() => undefined);
    } catch (error) {
      this.warn(`monitoring: the files of a day were not merged: ${(error as Error).message}`);
      await unlink(`${target}.tmp`).catch(() => undefined);
    }
  }
}
