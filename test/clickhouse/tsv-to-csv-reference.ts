// The rewrite of ClickHouse's TabSeparated as CSV (src/engine/clickhouse/tsv-to-csv.ts) as it was
// before its held line stopped being joined with every chunk and its output stopped taking 6 bytes
// per byte read: kept verbatim as the reference the property test compares the rewrite's bytes to.
// Not to be fixed or tidied: its bytes are the contract.
import { Transform, type TransformCallback } from 'node:stream';

/** What a column's TSV cells hold: a text (escaped), a date, an instant, or bytes copied as they are. */
type CellKind = 'text' | 'date' | 'instant' | 'plain';

/** When a cell is quoted: never, when it must be (empty, holding the delimiter...), or always. */
type CellQuote = 'never' | 'needed' | 'always';

interface CellPlan {
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
export class ReferenceTsvToCsv extends Transform {
  private rest: Buffer | null = null;
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
    const input = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    const end = input.lastIndexOf(NEWLINE) + 1;
    this.rest = end < input.length ? input.subarray(end) : null;
    if (end === 0) return done();
    // At most a cell of n bytes and its separator become 2n + 6 (quotes doubled, two around, a
    // zone, a delimiter): 6 bytes for each byte read.
    const out = Buffer.allocUnsafe(end * 6 + 64);
    const written = rewrite(input, end, out, this.kinds, this.quotes, this.delimiter);
    if (written < 0) return done(new Error('internal: a ClickHouse line without the columns asked'));
    done(null, out.subarray(0, written));
  }

  override _flush(done: TransformCallback): void {
    // ClickHouse ends every line with a newline: bytes after the last one are a cut answer's.
    if (this.rest) return done(new Error('internal: a ClickHouse answer ends inside a line'));
    done(null, this.tail === '' ? undefined : this.tail);
  }
}

/**
 * Writes the CSV of the whole lines of `input` before `end` into `out`; the bytes written, or -1
 * when a line has not one cell per kind. One pass, most cells copied as they are scanned.
 */
function rewrite(
  input: Uint8Array,
  end: number,
  out: Uint8Array,
  kinds: Uint8Array,
  quotes: Uint8Array,
  delimiter: number,
): number {
  const last = kinds.length - 1;
  let i = 0;
  let o = 0;
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
  if (zero) {
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
