// The catalog's index file, `<portal>/.tmp/catalog-index.tsv`: one line per dataset loaded, so
// that a start reads what it knows of every dataset in one go (each validated when its
// dataset.json had the same stamp) and a reload rereads only the folders whose dataset.json
// changed. A line is `id TAB stamp TAB facts TAB row TAB record`: the stamp of its dataset.json
// (inode, size, mtime), the template columns its catalog row fills and its data version, its
// catalog row and its record (the validated dataset.json and what the folder held), each JSON
// without a raw tab or newline. Lines are appended (a later line wins; `-` as stamp: the dataset
// is gone); a start writes the file anew (compacted) when it is missing or half of it is lines
// superseded. It is a cache: deleted, it is rebuilt.
import { closeSync, mkdirSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { read } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { DatasetFile } from './schema.js';

/** Where a portal's index file is. */
export const catalogIndexPath = (portalDir: string): string =>
  path.join(portalDir, '.tmp', 'catalog-index.tsv');

/** A dataset as the index keeps it: its validated dataset.json and the files its folder held. */
export interface StoredDataset {
  readonly file: DatasetFile;
  readonly search: boolean;
  /** The fields whose table of value counts is there. */
  readonly counts: readonly string[];
  /** The attachments' file names. */
  readonly attachments: readonly string[];
}

/** A template column a catalog row fills: its name (`dcat.created`), type and whether a list. */
export type TemplateColumn = readonly [name: string, type: string, multivalued: boolean];

/** What a start needs of every line at once: the row's template columns and the data version. */
export interface LineFacts {
  readonly templates: readonly TemplateColumn[];
  /** The data version's tag and time (ms). */
  readonly version: readonly [tag: string, modified: number];
  /** The engine kind of an attached dataset, checked again at each load against the registry. */
  readonly engine?: string;
  /** Its audiences' row filters, checked again at each load. */
  readonly filters?: readonly string[];
  /** Whether it names audiences (`access`): only then do two identified callers see it apart. */
  readonly audiences?: boolean;
  /**
   * Whether its visibility is `restricted` (the catalog page leaves out those a visitor cannot
   * open): always written, so a line without it predates it and its folder is read again.
   */
  readonly restricted?: boolean;
  /** The version of the search tokens its row holds (catalog-tokens.ts); absent: none. */
  readonly tokens?: number;
}

/** One line of the index, its row and record read only when asked (`IndexFile.record`). */
export interface IndexLine {
  readonly id: string;
  readonly stamp: string;
  readonly facts: LineFacts;
  /** Where the line starts in the file, and where its row's JSON and its record's JSON start. */
  readonly offset: number;
  readonly rowAt: number;
  readonly recordAt: number;
  /** Where the line ends (past its newline). */
  readonly end: number;
  readonly file: IndexFile;
}

/** A line to write: its parts as text. */
export interface NewLine {
  readonly id: string;
  readonly stamp: string;
  readonly facts: LineFacts;
  readonly row: string;
  /** A StoredDataset's JSON. */
  readonly record: string;
}

const TAB = 9;
const NEWLINE = 10;
/** Bytes read at once when a start scans the file (the file of 100,000 datasets held 450 MB). */
const SCAN_CHUNK = 8 << 20;
/** Bytes of lines gathered before one write. */
const WRITE_CHUNK = 4 << 20;

const readAt = promisify(read);

/** An index file held open (a rewritten one keeps being read through its descriptor). */
export class IndexFile {
  /** Bytes of lines a later line superseded. */
  private dead = 0;

  private constructor(
    private readonly fd: number,
    private size: number,
    /** The file's path once in place. */
    private readonly place: string,
    /** Where it is written until `publish` renames it into place, or null. */
    private aside: string | null = null,
  ) {}

  /** Opens `file` as it is, with its lines (later ones winning, tombstones dropped); none when absent. */
  static async open(file: string): Promise<{ index: IndexFile | null; lines: Map<string, IndexLine> }> {
    const lines = new Map<string, IndexLine>();
    let fd: number;
    try {
      fd = openSync(file, 'r+');
    } catch {
      return { index: null, lines };
    }
    const index = new IndexFile(fd, 0, file);
    // Read in chunks, each scanned for its whole lines: the file is never held whole.
    let carry = Buffer.alloc(0);
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.max(SCAN_CHUNK, carry.length * 2));
      carry.copy(chunk);
      const start = index.size + carry.length;
      const { bytesRead } = await readAt(fd, chunk, carry.length, chunk.length - carry.length, start);
      if (bytesRead === 0) break;
      const filled = chunk.subarray(0, carry.length + bytesRead);
      const last = filled.lastIndexOf(NEWLINE);
      if (last < 0) {
        carry = Buffer.from(filled);
        continue;
      }
      index.scan(filled.subarray(0, last + 1), lines);
      carry = Buffer.from(filled.subarray(last + 1));
    }
    return { index, lines };
  }

  /** A new empty index, written beside `file` until `publish` puts it in place. */
  static create(file: string): IndexFile {
    mkdirSync(path.dirname(file), { recursive: true });
    const aside = `${file}.${process.pid}`;
    return new IndexFile(openSync(aside, 'w+'), 0, file, aside);
  }

  /** Reads the whole lines of `bytes` (the file from `this.size` on) into `into`; the size grows past them. */
  private scan(bytes: Buffer, into: Map<string, IndexLine>): void {
    const base = this.size;
    const tabs = [0, 0, 0, 0, 0];
    for (let start = 0; start < bytes.length;) {
      const end = bytes.indexOf(NEWLINE, start);
      if (end < 0) break;
      tabs[0] = start - 1;
      for (let i = 1; i < 5; i++) tabs[i] = bytes.indexOf(TAB, tabs[i - 1]! + 1);
      if (tabs.every((t) => t >= start - 1 && t < end)) {
        const id = bytes.toString('utf8', start, tabs[1]);
        const stamp = bytes.toString('utf8', tabs[1]! + 1, tabs[2]);
        const before = into.get(id);
        if (before) this.dead += before.end - before.offset;
        if (stamp === '-') into.delete(id);
        else
          into.set(id, {
            id,
            stamp,
            facts: JSON.parse(bytes.toString('utf8', tabs[2]! + 1, tabs[3])) as LineFacts,
            offset: base + start,
            rowAt: base + tabs[3]! + 1,
            recordAt: base + tabs[4]! + 1,
            end: base + end + 1,
            file: this,
          });
      }
      start = end + 1;
    }
    this.size = base + bytes.length;
  }

  /** Whether half of the file or more is lines that later ones superseded. */
  get wasteful(): boolean {
    return this.dead * 2 >= this.size;
  }

  /** The bytes from `from` to `to` of this file. */
  private read(from: number, to: number): Buffer {
    const bytes = Buffer.allocUnsafe(to - from);
    readSync(this.fd, bytes, 0, bytes.length, from);
    return bytes;
  }

  /** A line's catalog row, as JSON. */
  static row(line: IndexLine): Buffer {
    return line.file.read(line.rowAt, line.recordAt - 1);
  }

  /** A line's record. */
  static record(line: IndexLine): StoredDataset {
    return JSON.parse(line.file.read(line.recordAt, line.end - 1).toString('utf8')) as StoredDataset;
  }

  /** Appends `lines` and tombstones for `removed`; returns the lines as read back. */
  append(lines: readonly NewLine[], removed: readonly string[] = []): IndexLine[] {
    const text = [...lines.map(lineText), ...removed.map((id) => `${id}\t-\t\t\t\n`)].join('');
    return this.write(Buffer.from(text));
  }

  /** Appends the bytes of whole lines; returns the lines as read back. */
  private write(bytes: Buffer): IndexLine[] {
    for (let done = 0; done < bytes.length;)
      done += writeSync(this.fd, bytes, done, bytes.length - done, this.size + done);
    const read = new Map<string, IndexLine>();
    this.scan(bytes, read);
    return [...read.values()];
  }

  /**
   * Appends the lines `kept` of other files as they are (runs of neighbouring lines read at once),
   * in chunks between which other work gets its turn; returns them as lines of this file.
   */
  async copy(kept: Iterable<IndexLine>): Promise<IndexLine[]> {
    const copied: IndexLine[] = [];
    let run: { file: IndexFile; from: number; to: number } | null = null;
    const flush = async (): Promise<void> => {
      if (run) copied.push(...this.write(run.file.read(run.from, run.to)));
      run = null;
      await new Promise((resolve) => setImmediate(resolve));
    };
    for (const line of kept) {
      if (run && run.file === line.file && run.to === line.offset && run.to - run.from < WRITE_CHUNK)
        run.to = line.end;
      else {
        if (run) await flush();
        run = { file: line.file, from: line.offset, to: line.end };
      }
    }
    await flush();
    return copied;
  }

  /** Puts a created file in place (renamed over the file it replaces). */
  publish(): void {
    if (this.aside === null) return;
    renameSync(this.aside, this.place);
    this.aside = null;
  }

  close(): void {
    closeSync(this.fd);
  }
}

function lineText(line: NewLine): string {
  return `${line.id}\t${line.stamp}\t${JSON.stringify(line.facts)}\t${line.row}\t${line.record}\n`;
}
