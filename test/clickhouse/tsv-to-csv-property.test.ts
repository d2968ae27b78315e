// The byte rewrite of ClickHouse's TabSeparated as CSV (src/engine/clickhouse/tsv-to-csv.ts) writes
// what its rules say, here written cell by cell over whole texts (csvOf), for any TSV ClickHouse
// writes: texts with every escape, quotes, delimiters and multi-byte UTF-8, nulls, day 0, any plan
// and delimiter, cut into chunks of any size, and lines with a cell too many or too few (an error,
// after the lines before them at most). A line longer than many chunks is joined once, not with
// every chunk.
import { expect } from 'chai';
import fc from 'fast-check';
import { Readable, type Transform } from 'node:stream';
import { TsvToCsv, type CellPlan } from '../../src/engine/clickhouse/tsv-to-csv.js';

/** ClickHouse 18.16's TSV escapes (writeEscapedString): each escaped byte and what it is written as. */
const ESCAPES: Record<string, string> = {
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\0': '\\0',
  "'": "\\'",
  '\\': '\\\\',
};

const escaped = (text: string): string => text.replace(/[\b\f\n\r\t\0'\\]/g, (c) => ESCAPES[c]!);

/** Characters a text is made of: separators, quotes, every escaped byte, the delimiters, UTF-8. */
const CHARACTERS = [
  ...['a', 'N', 'x', '"', ';', ',', '|', '-', ' ', ':', '0', '1', '+'],
  ...['\t', '\n', '\r', '\\', "'", '\0', '\b', '\f'],
  ...['é', '日', '🚀'],
];

const NULL = '\\N';
const pad = (n: number, width: number): string => String(n).padStart(width, '0');

const day = fc
  .tuple(
    fc.integer({ min: 1970, max: 2105 }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 28 }),
  )
  .map(([y, m, d]) => `${y}-${pad(m, 2)}-${pad(d, 2)}`);
const time = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, m, s]) => `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}`);

/** A TSV cell of each kind as ClickHouse writes it, null (`\N`) included. */
const CELLS: Record<CellPlan['kind'], fc.Arbitrary<string>> = {
  text: fc.oneof(
    fc.constant(NULL),
    fc.constant(''),
    fc.array(fc.constantFrom(...CHARACTERS), { maxLength: 12 }).map((c) => escaped(c.join(''))),
  ),
  plain: fc.oneof(
    fc.constant(NULL),
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }).map(String),
    fc.constantFrom('true', 'false', '1e-05', '-0.5', 'nan', 'inf'),
  ),
  date: fc.oneof(fc.constant(NULL), fc.constant('0000-00-00'), day),
  instant: fc.oneof(
    fc.constant(NULL),
    fc.constant('0000-00-00 00:00:00'),
    fc.tuple(day, time).map(([d, t]) => `${d} ${t}`),
  ),
};

/** A column's plan: any quote for any kind (copy-columns.ts uses fewer). */
const plan: fc.Arbitrary<CellPlan> = fc.record({
  kind: fc.constantFrom('text', 'plain', 'date', 'instant'),
  quote: fc.constantFrom('never', 'needed', 'always'),
});

/** Plans, a delimiter, the TSV of lines after the plans (now and then a cell too many or too few). */
const answer = fc
  .tuple(fc.array(plan, { minLength: 1, maxLength: 6 }), fc.constantFrom(';', ',', '\t', '|', '-', ' ', '0'))
  .chain(([plans, delimiter]) => {
    const line = fc
      .tuple(fc.tuple(...plans.map((p) => CELLS[p.kind])), fc.nat({ max: 40 }))
      .map(([cells, odd]) =>
        (odd === 0 ? cells.slice(0, -1) : odd === 1 ? [...cells, 'extra'] : cells).join('\t'),
      );
    return fc.record({
      plans: fc.constant(plans),
      delimiter: fc.constant(delimiter),
      tsv: fc.array(line, { maxLength: 30 }).map((lines) => Buffer.from(lines.map((l) => `${l}\n`).join(''))),
      sizes: fc.array(fc.integer({ min: 1, max: 80 }), { minLength: 1, maxLength: 8 }),
    });
  });

/** What a backslash and the character after it stand for in ClickHouse's TSV (others: the character). */
const UNESCAPED: Record<string, string> = {
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  '0': '\0',
  a: '\x07',
  v: '\v',
};

const quoted = (text: string): string => `"${text.replaceAll('"', '""')}"`;

/** One TSV cell as CSV, after the rules of tsv-to-csv.ts's head comment (texts as latin1: bytes). */
function cellOf(cell: string, { kind, quote }: CellPlan, delimiter: string): string {
  if (cell === NULL || kind === 'plain') return cell === NULL ? '' : cell;
  if (kind === 'text') {
    const text = cell.replace(/\\(.)/gs, (_, c: string) => UNESCAPED[c] ?? c);
    const special = text === '' || /["\n\r]/.test(text) || text.includes(delimiter);
    return quote === 'always' || (quote === 'needed' && special) ? quoted(text) : text;
  }
  const epoch = kind === 'date' ? '1970-01-01' : '1970-01-01 00:00:00';
  const value = (cell.startsWith('0000') ? epoch : cell) + (kind === 'instant' ? '+00' : '');
  return quote === 'always' || (quote === 'needed' && value.includes(delimiter)) ? `"${value}"` : value;
}

/** The CSV of whole `tsv` lines after `plans`: its lines, and whether a line has not one cell per plan. */
function csvOf(
  tsv: Buffer,
  plans: readonly CellPlan[],
  delimiter: string,
): { lines: string[]; bad: boolean } {
  const lines: string[] = [];
  for (const line of tsv.toString('latin1').split('\n').slice(0, -1)) {
    const cells = line.split('\t');
    if (cells.length !== plans.length) return { lines, bad: true };
    lines.push(`${cells.map((cell, i) => cellOf(cell, plans[i]!, delimiter)).join(delimiter)}\n`);
  }
  return { lines, bad: false };
}

/** `bytes` cut into chunks of `sizes`, taken in turn. */
function cut(bytes: Buffer, sizes: readonly number[]): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0, n = 0; at < bytes.length; n++) {
    const size = sizes[n % sizes.length]!;
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

/** The bytes `rewrite` writes for `chunks` (the hex of them) and the error it ends with. */
async function through(chunks: readonly Buffer[], rewrite: Transform): Promise<[string, string | null]> {
  const parts: Buffer[] = [];
  try {
    for await (const part of Readable.from(chunks).pipe(rewrite)) parts.push(part as Buffer);
    return [Buffer.concat(parts).toString('hex'), null];
  } catch (error) {
    return [Buffer.concat(parts).toString('hex'), (error as Error).message];
  }
}

describe('TabSeparated rewritten as CSV', () => {
  it('writes the CSV its rules say for any TSV, plans, delimiter and cut into chunks', async () => {
    await fc.assert(
      fc.asyncProperty(answer, async ({ plans, delimiter, tsv, sizes }) => {
        const [hex, error] = await through(cut(tsv, sizes), new TsvToCsv(plans, delimiter, 'head\n', 'tail'));
        const written = Buffer.from(hex, 'hex').toString('latin1');
        const { lines, bad } = csvOf(tsv, plans, delimiter);
        if (!bad) {
          expect([written, error]).to.deep.equal([`head\n${lines.join('')}tail`, null]);
          return;
        }
        // The lines before the bad one, as far as their chunks were rewritten, then the error.
        expect(error).to.equal('internal: a ClickHouse line without the columns asked');
        expect(`head\n${lines.join('')}`.startsWith(written), written).to.equal(true);
      }),
      { numRuns: 400 },
    );
  });

  it('writes a long line of quotes ending in a chunk whole (the output outgrows its guess)', async () => {
    const plans: CellPlan[] = [
      { kind: 'text', quote: 'always' },
      { kind: 'instant', quote: 'always' },
    ];
    const tsv = Buffer.from(`${'"'.repeat(100_000)}\t2024-01-01 00:00:00\n${'\t\\N\n'.repeat(5000)}`);
    const [hex, error] = await through(cut(tsv, [65_536]), new TsvToCsv(plans, ';'));
    const expected = `"${'"'.repeat(200_000)}";"2024-01-01 00:00:00+00"\n${'"";\n'.repeat(5000)}`;
    expect([Buffer.from(hex, 'hex').toString('latin1'), error]).to.deep.equal([expected, null]);
  });

  it('joins a line longer than many chunks once, not with each chunk', async () => {
    const pieces = Array.from({ length: 500 }, () => Buffer.from('x'.repeat(1000)));
    const chunks = [Buffer.from('a\n'), ...pieces, Buffer.from('\nb\n')];
    const original = Object.getOwnPropertyDescriptor(Buffer, 'concat')!;
    const concat = Buffer.concat.bind(Buffer);
    let joined = 0;
    Buffer.concat = (list: readonly Uint8Array[], length?: number) => {
      joined += list.reduce((sum, b) => sum + b.length, 0);
      return concat(list, length);
    };
    const parts: Buffer[] = [];
    try {
      const rewrite = Readable.from(chunks).pipe(new TsvToCsv([{ kind: 'text', quote: 'needed' }], ';'));
      for await (const part of rewrite) parts.push(part as Buffer);
    } finally {
      Object.defineProperty(Buffer, 'concat', original);
    }
    expect(Buffer.concat(parts).toString()).to.equal(`a\n${'x'.repeat(500_000)}\nb\n`);
    // Joined at each chunk, the held bytes were copied 125 million times; once, 500,001.
    expect(joined).to.be.at.most(500_001);
  });
});
