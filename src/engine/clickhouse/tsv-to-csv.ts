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
const ZONE = Buffer.from('+00');

/** Rewrites TSV lines as CSV lines with `delimiter`, cell by cell after `plans`, between `head` and `tail`. */
export class TsvToCsv extends Transform {
  private rest: Buffer | null = null;
  private readonly delimiter: number;

  constructor(
    private readonly plans: readonly CellPlan[],
    delimiter: string,
    head = '',
    private readonly tail = '',
  ) {
    super({ highWaterMark: 1 << 20 });
    this.delimiter = Buffer.from(delimiter)[0]!;
    if (head !== '') this.push(head);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const input = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    const end = input.lastIndexOf(NEWLINE) + 1;
    this.rest = end < input.length ? input.subarray(end) : null;
    if (end > 0) this.push(this.lines(input, end));
    done();
  }

  override _flush(done: TransformCallback): void {
    // ClickHouse ends every line with a newline: bytes after the last one are a cut answer's.
    if (this.rest) return done(new Error('internal: a ClickHouse answer ends inside a line'));
    done(null, this.tail === '' ? undefined : this.tail);
  }

  /** The CSV of the whole lines in `input` before `end`. */
  private lines(input: Buffer, end: number): Buffer {
    const { plans, delimiter } = this;
    // At most a cell of n bytes and its separator become 2n + 6 (quotes doubled, two around, a
    // zone, a delimiter): 6 bytes for each byte read.
    const out = Buffer.allocUnsafe(end * 6 + 64);
    let o = 0;
    let i = 0;
    while (i < end) {
      for (let c = 0; c < plans.length; c++) {
        if (c > 0) out[o++] = delimiter;
        const start = i;
        let special = false;
        let escaped = false;
        for (let b = input[i]!; b !== TAB && b !== NEWLINE && i < end; b = input[++i]!) {
          if (b === BACKSLASH) {
            escaped = true;
            const next = UNESCAPED[input[++i]!]!;
            if (next === NEWLINE || next === CR || next === delimiter) special = true;
          } else if (b === QUOTE || b === delimiter) special = true;
        }
        o = this.cell(input, start, i, escaped, special, plans[c]!, out, o);
        i++;
      }
      out[o++] = NEWLINE;
    }
    return out.subarray(0, o);
  }

  /** Writes the cell `input[start, stop)` into `out` at `o`; the index after it. */
  private cell(
    input: Buffer,
    start: number,
    stop: number,
    escaped: boolean,
    special: boolean,
    plan: CellPlan,
    out: Buffer,
    o: number,
  ): number {
    if (stop - start === 2 && input[start] === BACKSLASH && input[start + 1] === 78) return o; // \N
    if (plan.kind === 'date' || plan.kind === 'instant') return this.day(input, start, stop, plan, out, o);
    const quoted = plan.quote === 'always' || (plan.quote === 'needed' && (special || start === stop));
    if (quoted) out[o++] = QUOTE;
    for (let i = start; i < stop; i++) {
      let b = input[i]!;
      if (escaped && b === BACKSLASH) b = UNESCAPED[input[++i]!]!;
      if (b === QUOTE && quoted) out[o++] = QUOTE;
      out[o++] = b;
    }
    if (quoted) out[o++] = QUOTE;
    return o;
  }

  /** A date's or an instant's cell: day 0 as the epoch, an instant's zone after it. */
  private day(input: Buffer, start: number, stop: number, plan: CellPlan, out: Buffer, o: number): number {
    const instant = plan.kind === 'instant';
    const from = o;
    if (plan.quote === 'always') out[o++] = QUOTE;
    // Year 0000 is day 0 (ClickHouse's dates run from 1970 to 2105).
    if (
      input[start] === ZERO &&
      input[start + 1] === ZERO &&
      input[start + 2] === ZERO &&
      input[start + 3] === ZERO
    )
      o += (instant ? EPOCH_INSTANT : EPOCH_DAY).copy(out, o);
    else for (let i = start; i < stop; i++) out[o++] = input[i]!;
    if (instant) o += ZONE.copy(out, o);
    if (plan.quote === 'always') out[o++] = QUOTE;
    else if (plan.quote === 'needed' && out.subarray(from, o).includes(this.delimiter)) {
      out.copyWithin(from + 1, from, o);
      out[from] = QUOTE;
      out[o + 1] = QUOTE;
      o += 2;
    }
    return o;
  }
}
