// Small Parquet files (a dataset's tables of value counts) copied
// into DuckDB's memory instead of read from the file at each query, under a budget: a count over
// the 229 values of the bench's origins takes 0.17 ms from memory against 0.56 ms from its file
// (bench/README.md, ClickHouse). Only a file defined as pinned is copied (the server pins each
// dataset version's files), so a copy never goes stale; the budget is taken in DuckDB's memory limit.
import { stat } from 'node:fs/promises';

/**
 * The largest file copied: 256 KiB of Parquet holds tens of thousands of values with their counts.
 * A table takes about 3.3 times its file in DuckDB's memory (the bench's 1.4 MB counts of dates:
 * 4.8 MB) and 64 KiB at least (its columns' first blocks: 53-70 KB for files of 2-9 KB).
 */
export const SMALL_FILE_BYTES = 256 * 1024;

/** The least a table takes, and its size per byte of file (measured, see SMALL_FILE_BYTES). */
const TABLE_FLOOR_BYTES = 64 * 1024;
const BYTES_PER_FILE_BYTE = 4;

/** A 16th of DuckDB's memory limit (24 MB of the server's default 384MB: about 380 small tables). */
export const SMALL_TABLES_SHARE = 16;

/** The budget when DuckDB is given no memory limit (a 16th of the server's default). */
export const DEFAULT_SMALL_TABLES_BYTES = 24 * 1024 * 1024;

/** Names of the tables held, and the memory each is counted for. */
export class SmallTables {
  private readonly held = new Map<string, number>();
  private heldBytes = 0;

  constructor(private readonly budgetBytes: number) {}

  /** Whether `name` is held as a table (dropped as one) rather than a view. */
  has(name: string): boolean {
    return this.held.has(name);
  }

  /**
   * Whether the file at `file` (a single Parquet file, no glob) is copied as `name`: small enough,
   * and within the budget once `name`'s current copy, if any, is given back. Reserves its share.
   */
  async take(name: string, file: string): Promise<boolean> {
    this.release(name);
    if (/[*?[{]/.test(file)) return false;
    const size = (await stat(file).catch(() => null))?.size;
    if (size === undefined || size > SMALL_FILE_BYTES) return false;
    const bytes = Math.max(TABLE_FLOOR_BYTES, size * BYTES_PER_FILE_BYTE);
    if (this.heldBytes + bytes > this.budgetBytes) return false;
    this.held.set(name, bytes);
    this.heldBytes += bytes;
    return true;
  }

  /** Gives back `name`'s share (its table dropped or replaced by a view). */
  release(name: string): void {
    this.heldBytes -= this.held.get(name) ?? 0;
    this.held.delete(name);
  }

  /** Bytes of DuckDB's memory counted for the tables held. */
  get bytes(): number {
    return this.heldBytes;
  }
}

/** Bytes of a memory limit as DuckDB's setting writes it ('384MB', '2GiB', '1.5GB'), or null. */
export function limitBytes(limit: string | undefined): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?i?b?)\s*$/i.exec(limit ?? '');
  if (!match) return null;
  const unit = match[2]!.toLowerCase().replace(/i?b$/, '');
  const power = ['', 'k', 'm', 'g', 't'].indexOf(unit);
  const base = match[2]!.toLowerCase().includes('i') ? 1024 : 1000;
  return Number(match[1]) * base ** power;
}
