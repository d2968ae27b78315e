// The byte rewrite of ClickHouse's TabSeparated as CSV (src/engine/clickhouse/tsv-to-csv.ts) writes
// the bytes its earlier version wrote (tsv-to-csv-reference.ts) for any TSV ClickHouse writes: texts
// with every escape, quotes, delimiters and multi-byte UTF-8, nulls, day 0, any plan and delimiter,
// cut into chunks of any size, and lines with a cell too many or too few (the same error). A line
// longer than many chunks is joined once, not with every chunk.
import { expect } from 'chai';
import fc from 'fast-check';
import { Readable, type Transform } from 'node:stream';
import { TsvToCsv, type CellPlan } from '../../src/engine/clickhouse/tsv-to-csv.js';
import { ReferenceTsvToCsv } from './tsv-to-csv-reference.js';

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

describe('TabSeparated rewritten as CSV, against its earlier version', () => {
  it('writes the same bytes for any TSV, plans, delimiter and cut into chunks', async () => {
    await fc.assert(
      fc.asyncProperty(answer, async ({ plans, delimiter, tsv, sizes }) => {
        const chunks = cut(tsv, sizes);
        const expected = await through(chunks, new ReferenceTsvToCsv(plans, delimiter, 'head\n', 'tail'));
        expect(await through(chunks, new TsvToCsv(plans, delimiter, 'head\n', 'tail'))).to.deep.equal(
          expected,
        );
      }),
      { numRuns: 400 },
    );
  });

  it('writes the same bytes when a chunk ends a long line of quotes (the output outgrows its guess)', async () => {
    const plans: CellPlan[] = [
      { kind: 'text', quote: 'always' },
      { kind: 'instant', quote: 'always' },
    ];
    const tsv = Buffer.from(`${'"'.repeat(100_000)}\t2024-01-01 00:00:00\n${'\t\\N\n'.repeat(5000)}`);
    const chunks = cut(tsv, [65_536]);
    const expected = await through(chunks, new ReferenceTsvToCsv(plans, ';'));
    expect(await through(chunks, new TsvToCsv(plans, ';'))).to.deep.equal(expected);
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
