// The byte rewrite of ClickHouse's TabSeparated output as CSV (src/engine/clickhouse/tsv-to-csv.ts):
// escapes undone, `\N` empty, texts quoted as DuckDB quotes them or always, day 0 the epoch, the
// zone after an instant; the same bytes however the input is cut into chunks; an answer ending
// inside a line is an error, never a short file.
import { expect } from 'chai';
import { Readable } from 'node:stream';
import { TsvToCsv, type CellPlan } from '../../src/engine/clickhouse/tsv-to-csv.js';

/** The output of `chunks` through a rewrite with `plans` and `delimiter`. */
async function rewritten(
  chunks: readonly Buffer[],
  plans: readonly CellPlan[],
  delimiter = ';',
): Promise<string> {
  const parts: Buffer[] = [];
  const rewrite = Readable.from(chunks).pipe(new TsvToCsv(plans, delimiter, 'head\n', 'tail'));
  for await (const part of rewrite) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

const PLANS: readonly CellPlan[] = [
  { kind: 'text', quote: 'needed' },
  { kind: 'plain', quote: 'never' },
  { kind: 'date', quote: 'never' },
  { kind: 'instant', quote: 'never' },
  { kind: 'text', quote: 'always' },
];

const TSV =
  [
    'plain\t1\t2024-02-29\t2024-02-29 12:34:56\tx',
    '\\N\t\\N\t\\N\t\\N\t\\N',
    '\t-3\t0000-00-00\t0000-00-00 00:00:00\t',
    'tab\\there "q" ;\\nline é \\\\N\t9007199254740993\t2105-12-31\t2038-01-19 03:14:08\tsay "hi"\\r\\n',
    "it\\'s 日本語 🚀\ttrue\t1970-01-02\t1970-01-01 00:00:01\t\\\\",
  ].join('\n') + '\n';

const CSV =
  'head\n' +
  [
    'plain;1;2024-02-29;2024-02-29 12:34:56+00;"x"',
    ';;;;',
    '"";-3;1970-01-01;1970-01-01 00:00:00+00;""',
    '"tab\there ""q"" ;\nline é \\N";9007199254740993;2105-12-31;2038-01-19 03:14:08+00;"say ""hi""\r\n"',
    `it's 日本語 🚀;true;1970-01-02;1970-01-01 00:00:01+00;"\\"`,
  ].join('\n') +
  '\ntail';

describe('TabSeparated rewritten as CSV', () => {
  it('undoes escapes, writes null as an empty cell, quotes texts, writes day 0 as the epoch', async () => {
    expect(await rewritten([Buffer.from(TSV)], PLANS)).to.equal(CSV);
  });

  it('writes the same bytes for every cut of the input in two chunks', async () => {
    const bytes = Buffer.from(TSV);
    for (let cut = 1; cut < bytes.length; cut++)
      expect(await rewritten([bytes.subarray(0, cut), bytes.subarray(cut)], PLANS), `cut at ${cut}`).to.equal(
        CSV,
      );
  });

  it('quotes a text holding a tab when the delimiter is a tab, and a date holding the delimiter', async () => {
    const plans: CellPlan[] = [
      { kind: 'text', quote: 'needed' },
      { kind: 'date', quote: 'needed' },
    ];
    expect(await rewritten([Buffer.from('a\\tb;c\t2024-01-01\n')], plans, '\t')).to.equal(
      'head\n"a\tb;c"\t2024-01-01\ntail',
    );
    expect(await rewritten([Buffer.from('a;b\t2024-01-01\n')], plans, '-')).to.equal(
      'head\na;b-"2024-01-01"\ntail',
    );
  });

  it('fails on an answer that ends inside a line', async () => {
    const error = await rewritten(
      [Buffer.from('a\t1\t2024-01-01\t2024-01-01 00:00:00\tb\nc\t2')],
      PLANS,
    ).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).to.match(/ends inside a line/);
  });
});
