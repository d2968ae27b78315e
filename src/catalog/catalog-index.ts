// The catalog's index file, `<portal>/.tmp/catalog-index.tsv`: one line per dataset loaded, so
// that a start reads what it knows of every dataset in one go (each validated when its
// dataset.json had the same stamp) and a reload rereads only the folders whose dataset.json
// changed. A line is `id TAB stamp TAB facts TAB row TAB record`: the stamp of its dataset.json
// (inode, size, mtime), the template columns its catalog row fills and its data version, its catalog row and its record
// (the validated dataset.json and what the folder held), each JSON without a raw tab or newline.
// A start rewrites the file whole, sorted by id, when anything changed; a reload appends (a later
// line wins; `-` as stamp: the dataset is gone). It is a cache: deleted, it is rebuilt.
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
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
}

/** One line of the index, its record read only when asked (`IndexFile.record`). */
export interface IndexLine {
  readonly id: string;
  readonly stamp: string;
  readonly facts: LineFacts;
  /** Where the row's JSON is in the file. */
  readonly row: Span;
  /** Where the record's JSON is in the file. */
  readonly record: Span;
  readonly file: IndexFile;
}

interface Span {
  readonly offset: number;
  readonly length: number;
}

/** A line to write: its parts as text. */
export interface NewLine {
  readonly id: string;
  readonly stamp: string;
  readonly facts: LineFacts;
  readonly row: string;
  readonly record: StoredDataset;
}

const TAB = 9;
const NEWLINE = 10;

/** An index file held open for reading (a rewritten one keeps being read through its descriptor). */
export class IndexFile {
  private constructor(
    private readonly fd: number,
    private size: number,
    private readonly appendPath: string,
  ) {}

  /** Opens `file` as it is, with its lines (later ones winning, tombstones dropped); none when absent. */
  static async open(file: string): Promise<{ index: IndexFile | null; lines: Map<string, IndexLine> }> {
    const bytes = await readFile(file).catch(() => null);
    const lines = new Map<string, IndexLine>();
    if (bytes === null) return { index: null, lines };
    const index = new IndexFile(openSync(file, 'r'), bytes.length, file);
    index.scan(bytes, 0, lines);
    return { index, lines };
  }

  /** Reads the lines of `bytes` (the file from `base` on) into `into`. */
  private scan(bytes: Buffer, base: number, into: Map<string, IndexLine>): void {
    for (let start = 0; start < bytes.length;) {
      const end = bytes.indexOf(NEWLINE, start);
      if (end < 0) break;
      const tabs = [start - 1];
      for (let i = 0; i < 4; i++) tabs.push(bytes.indexOf(TAB, tabs[i]! + 1));
      if (tabs.every((t) => t >= start - 1 && t < end)) {
        const id = bytes.toString('utf8', start, tabs[1]);
        const stamp = bytes.toString('utf8', tabs[1]! + 1, tabs[2]);
        if (stamp === '-') into.delete(id);
        else
          into.set(id, {
            id,
            stamp,
            facts: JSON.parse(bytes.toString('utf8', tabs[2]! + 1, tabs[3])) as LineFacts,
            row: { offset: base + tabs[3]! + 1, length: tabs[4]! - tabs[3]! - 1 },
            record: { offset: base + tabs[4]! + 1, length: end - tabs[4]! - 1 },
            file: this,
          });
      }
      start = end + 1;
    }
  }

  /** The bytes of a span of this file. */
  read(span: Span): Buffer {
    const bytes = Buffer.allocUnsafe(span.length);
    readSync(this.fd, bytes, 0, span.length, span.offset);
    return bytes;
  }

  /** A line's record. */
  static record(line: IndexLine): StoredDataset {
    return JSON.parse(line.file.read(line.record).toString('utf8')) as StoredDataset;
  }

  /** Appends `lines` and tombstones for `removed`; returns the lines as read back. */
  append(lines: readonly NewLine[], removed: readonly string[]): IndexLine[] {
    const text = [...lines.map(lineText), ...removed.map((id) => `${id}\t-\t\t\t\n`)].join('');
    const bytes = Buffer.from(text);
    const fd = openSync(this.appendPath, 'a');
    try {
      writeSync(fd, bytes);
    } finally {
      closeSync(fd);
    }
    const read = new Map<string, IndexLine>();
    this.scan(bytes, this.size, read);
    this.size += bytes.length;
    return [...read.values()];
  }

  close(): void {
    closeSync(this.fd);
  }
}

function lineText(line: NewLine): string {
  return `${line.id}\t${line.stamp}\t${JSON.stringify(line.facts)}\t${line.row}\t${JSON.stringify(line.record)}\n`;
}

/**
 * Writes the index anew at `file` (written aside and renamed, so that a reader never sees half a
 * file): the lines kept from before, as they are, and the new ones, in `order`.
 */
export async function writeIndex(
  file: string,
  order: readonly string[],
  kept: ReadonlyMap<string, IndexLine>,
  fresh: ReadonlyMap<string, NewLine>,
): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const aside = `${file}.${process.pid}`;
  const handle = await open(aside, 'w');
  try {
    let chunk: Buffer[] = [];
    let bytes = 0;
    for (const id of order) {
      const line = fresh.get(id);
      const old = line ? null : kept.get(id);
      const part = line ? Buffer.from(lineText(line)) : old ? oldLineBytes(old) : null;
      if (!part) continue;
      chunk.push(part);
      bytes += part.length;
      if (bytes > 4 << 20) {
        await handle.write(Buffer.concat(chunk));
        [chunk, bytes] = [[], 0];
      }
    }
    await handle.write(Buffer.concat(chunk));
  } finally {
    await handle.close();
  }
  await rename(aside, file);
}

/** A kept line's bytes, rebuilt from its parts (its row and record read back as they were written). */
function oldLineBytes(line: IndexLine): Buffer {
  const head = Buffer.from(`${line.id}\t${line.stamp}\t${JSON.stringify(line.facts)}\t`);
  return Buffer.concat([
    head,
    line.file.read(line.row),
    Buffer.from('\t'),
    line.file.read(line.record),
    Buffer.from('\n'),
  ]);
}
