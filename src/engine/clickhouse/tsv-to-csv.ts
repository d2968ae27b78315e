// ClickHouse's TabSeparated bytes rewritten as CSV bytes, byte by byte, never one JS value at a
// time: each line's cells split on tabs (tabs, newlines and backslashes inside a text are escaped
// in TSV, so a raw tab or newline is always a separator), `\N` written as an empty cell, a text's
// escapes undone and the text quoted as its column says (DuckDB quotes a text when it is empty or
// holds the delimiter, a quote or a line break; the Parquet encoder reads every text quoted), a
// date's or an instant's day 0 written as the epoch (ClickHouse writes '0000-00-00'), an instant
// followed by its zone '+00'. ClickHouse writes the TSV of a result at several times the speed
// its string functions build the same lines (measured in docs/clickhouse.md).
import { Transform, type TransformCallback } from 'node:stream';

/** What a column's TSV cells hold: a text (escaped), a date, an instant, or bytes copied as they are. */
export type CellKind = 'text' | 'date' | 'instant' | 'plain';

/** When a cell is quoted: never, when it must be (empty, holding the delimiter...), or always. */
export type CellQuote = 'never' | 'needed' | 'always';

export interface CellPlan {
  readonly kind: CellKind;
  readonly quote: CellQuote;
}

const TAB = 9;
const NEWLINE = 10;
const CR = 13;
const QUOTE = 34;
const BACKSLASH = 92;

/** What a byte after a backslash stands for in ClickHouse's escaped text (others stand for themselves). */
const UNESCAPED = new Uint8Array(256).map((_, i) => i);
for (const [from, to] of [
  ['b', 8],
  ['f', 12],
  ['n', NEWLINE],
  ['r', CR],
  ['t', TAB],
  ['0', 0],
  ['a', 7],
  ['v', 11],
] as const)
  UNESCAPED[from.charCodeAt(0)] = to;

const ZERO = 48;
const EPOCH_DAY = Buffer.from('1970-01-01');
const EPOCH_INSTANT = Buffer.from('1970-01-01 00:00:00');

/** Cell kinds and quotes as numbers, for the loop. */
const KINDS: Record<CellKind, number> = { plain: 0, text: 1, date: 2, instant: 3 };
const QUOTES: Record<CellQuote, number> = { never: 0, needed: 1, always: 2 };

/** Rewrites TSV lines as CSV lines with `delimiter`, cell by cell after `plans`, between `head` and `tail`. */
export class TsvToCsv extends Transform {
  /** The chunks since the last newline, joined only once the newline ending their line comes. */
  private rest: Buffer[] = [];
  /** Output bytes guessed per input byte (raised when a chunk's output outgrew the guess: 1.08 for the bench's flights). */
  private growth = 1.25;
  private readonly delimiter: number;
  private readonly kinds: Uint8Array;
  private readonly quotes: Uint8Array;

  constructor(
    plans: readonly CellPlan[],
    delimiter: string,
    head = '',
    private readonly tail = '',
  ) {
    super({ highWaterMark: 1 << 20 });
    this.delimiter = Buffer.from(delimiter)[0]!;
    this.kinds = Uint8Array.from(plans, (p) => KINDS[p.kind]);
    this.quotes = Uint8Array.from(plans, (p) => QUOTES[p.quote]);
    if (head !== '') this.push(head);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const end = chunk.lastIndexOf(NEWLINE) + 1;
    if (end === 0) {
      this.rest.push(chunk);
      return done();
    }
    // The held line joined once, with this chunk's bytes up to the newline that ends it; the
    // chunk's other whole lines read where they are.
    let from = 0;
    let line: Buffer | null = null;
    if (this.rest.length > 0) {
      from = chunk.indexOf(NEWLINE) + 1;
      line = Buffer.concat([...this.rest, chunk.subarray(0, from)]);
    }
    this.rest = end < chunk.length ? [chunk.subarray(end)] : [];
    const read = (line?.length ?? 0) + end - from;
    let out = Buffer.allocUnsafe(Math.ceil(read * this.growth) + 64);
    let written = this.rewriteInto(out, line, chunk, from, end);
    // Past the guess, rewrite() wrote nothing (a typed array drops writes past its end) but counted
    // the bytes: written again into as many (more when a quoted date's check read dropped bytes).
    while (written > out.length) {
      this.growth = Math.max(this.growth, (written / read) * 1.1);
      out = Buffer.allocUnsafe(written + 64);
      written = this.rewriteInto(out, line, chunk, from, end);
    }
    if (written < 0) return done(new Error('internal: a ClickHouse line without the columns asked'));
    done(null, out.subarray(0, written));
  }

  /** Rewrites `line` (when held) then chunk[from, end) into `out`: the bytes they take, or -1. */
  private rewriteInto(out: Buffer, line: Buffer | null, chunk: Buffer, from: number, end: number): number {
    let o = 0;
    if (line) o = rewrite(line, 0, line.length, out, 0, this.kinds, this.quotes, this.delimiter);
    if (o < 0) return o;
    return rewrite(chunk, from, end, out, o, this.kinds, this.quotes, this.delimiter);
  }

  override _flush(done: TransformCallback): void {
    // ClickHouse ends every line with a newline: bytes after the last one are a cut answer's.
    if (this.rest.length > 0) return done(new Error('internal: a ClickHouse answer ends inside a line'));
    done(null, this.tail === '' ? undefined : this.tail);
  }
}

/**
 * Writes the CSV of the whole lines of input[i, end) into `out` from `o`; the index after them in
 * `out` (past its end when they did not fit: counted, not written), or -1 when a line has not one
 * cell per kind. One pass, most cells copied as they are scanned.
 */
function rewrite(
  input: Uint8Array,
  i: number,
  end: number,
  out: Uint8Array,
  o: number,
  kinds: Uint8Array,
  quotes: Uint8Array,
  delimiter: number,
): number {
  const last = kinds.length - 1;
  while (i < end) {
    for (let c = 0; c <= last; c++) {
      if (c > 0) out[o++] = delimiter;
      let b = input[i]!;
      // \N is null: an empty cell (a text's backslash is escaped, so \N is never a text).
      if (b === BACKSLASH && input[i + 1] === 78 && ((b = input[i + 2]!) === TAB || b === NEWLINE)) {
        i += 3;
      } else {
        const kind = kinds[c]!;
        const start = o;
        if (kind >= 2) o = day(input, i, out, o, kind === 3);
        else if (kind === 1) o = text(input, i, out, o, quotes[c]!, delimiter);
        else for (; (b = input[i]!) !== TAB && b !== NEWLINE; i++) out[o++] = b;
        if (kind !== 0) {
          i += scanned;
          if (quotes[c] === 2 && kind >= 2) o = quoteAround(out, start, o);
          else if (quotes[c] === 1 && kind >= 2 && out.subarray(start, o).includes(delimiter))
            o = quoteAround(out, start, o);
        }
        b = input[i++]!;
      }
      // Each line has one cell per column: a newline before the last, or a tab after it, is not one.
      if ((b === NEWLINE) !== (c === last)) return -1;
    }
    out[o++] = NEWLINE;
  }
  return o;
}

/** Bytes of input the last day() or text() read (a module variable: no object per cell). */
let scanned = 0;

/** Quotes out[start, o) (a date's text: no quote inside); the index after. */
function quoteAround(out: Uint8Array, start: number, o: number): number {
  out.copyWithin(start + 1, start, o);
  out[start] = QUOTE;
  out[o + 1] = QUOTE;
  return o + 2;
}

/** Writes a date's or an instant's cell at input[i]: day 0 as the epoch, an instant's zone after it. */
function day(input: Uint8Array, i: number, out: Uint8Array, o: number, instant: boolean): number {
  const start = i;
  // Year 0000 is day 0 (ClickHouse's dates run from 1970 to 2105).
  const zero = input[i] === ZERO && input[i + 1] === ZERO && input[i + 2] === ZERO && input[i + 3] === ZERO;
  let b: number;
  for (; (b = input[i]!) !== TAB && b !== NEWLINE; i++) out[o++] = b;
  // (Past out's end nothing is written: set() would throw there.)
  if (zero && o <= out.length) {
    const epoch = instant ? EPOCH_INSTANT : EPOCH_DAY;
    out.set(epoch, o - epoch.length);
  }
  if (instant) {
    out[o++] = 43; // +
    out[o++] = ZERO;
    out[o++] = ZERO;
  }
  scanned = i - start;
  return o;
}

/**
 * Writes a text's cell at input[i]: copied as it is while it holds nothing to undo or quote (the
 * usual case), else written again with its escapes undone and quoted as `quote` (0 never, 1
 * needed, 2 always) says.
 */
function text(
  input: Uint8Array,
  i: number,
  out: Uint8Array,
  o: number,
  quote: number,
  delimiter: number,
): number {
  const start = i;
  const from = o;
  let plain = quote !== 2;
  let b: number;
  while ((b = input[i]!) !== TAB && b !== NEWLINE) {
    if (b === BACKSLASH || b === QUOTE || b === delimiter) plain = false;
    out[o++] = b;
    i++;
  }
  scanned = i - start;
  if (plain && (i > start || quote === 0)) return o;
  // Again from the start: escapes undone, quotes doubled, quoted where it must be.
  o = from;
  let special = quote === 2 || i === start;
  for (let j = start; j < i; j++) {
    b = input[j]!;
    if (b === BACKSLASH) b = UNESCAPED[input[++j]!]!;
    if (b === QUOTE || b === delimiter || b === NEWLINE || b === CR) special = true;
  }
  const quoted = quote === 2 || (quote === 1 && special);
  if (quoted) out[o++] = QUOTE;
  for (let j = start; j < i; j++) {
    b = input[j]!;
    if (b === BACKSLASH) b = UNESCAPED[input[++j]!]!;
    if (b === QUOTE && quoted) out[o++] = QUOTE;
    out[o++] = b;
  }
  if (quoted) out[o++] = QUOTE;
  return o;
}
