// Progress while an ingest runs: periodic lines without a terminal, a bar on one (DuckDB's query progress).
import { expect } from 'chai';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { ingest } from '../../src/ingest/ingest.js';
import { describeAmount } from '../../src/ingest/progress.js';
import { cleanup, fixture, tempDir } from './helpers.js';

/** 200,000 rows (about 5 MB): long enough for many 1 ms ticks, quick enough for a test. */
function bigCsv(): string {
  const rows = Array.from(
    { length: 200_000 },
    (_, i) => `${i},${(i % 997) / 10},2020-01-${String((i % 28) + 1).padStart(2, '0')},name ${i % 5000}`,
  );
  return `id,value,day,name\n${rows.join('\n')}\n`;
}

describe('ingest: progress', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir();
  });
  after(cleanup);

  it('describes a phase by bytes or rows, with the rate and the time left', () => {
    expect(describeAmount({ bytes: 100e6 }, 0.25, 2)).to.equal('25.0 of 100.0 MB, 12.5 MB/s, ETA 6 s');
    expect(describeAmount({ rows: 3_000_000 }, 0.5, 1)).to.equal(
      '1,500,000 of 3,000,000 rows, 1,500,000 rows/s, ETA 1 s',
    );
  });

  it('without a terminal: the phase lines, and a line per tick while a phase runs', async () => {
    const file = await fixture(dir, 'big.csv', bigCsv());
    const lines: string[] = [];
    const portal = path.join(dir, 'lines');
    await ingest({ file, portal, id: 'big', progress: (line) => lines.push(line), progressEveryMs: 1 });
    const phases = lines.filter((line) => /^big: \[[\d.]+ s\] /.test(line));
    expect(phases.map((line) => line.replace(/^big: \[[\d.]+ s\] /, '').replace(/ \(.*/, ''))).to.deep.equal([
      `reading ${file} as csv`,
      '200000 rows, 4 columns',
      'choosing the field types',
      'writing data.parquet',
      'building the search index',
    ]);
    const ticks = lines.filter((line) => !phases.includes(line) && !/records in/.test(line));
    expect(ticks.length).to.be.greaterThan(0);
    for (const tick of ticks) {
      expect(tick).to.match(
        /^big: (reading .* as csv|choosing the field types|writing data\.parquet|building the search index) (\d+ s|\d+%( \(.*(MB\/s|rows\/s).*\))?)$/,
      );
    }
  });

  it('on a terminal: a bar instead of the periodic lines, cleared at the end', async () => {
    const file = await fixture(dir, 'big2.csv', bigCsv());
    const terminal = Object.assign(new PassThrough(), { isTTY: true, columns: 120 });
    let drawn = '';
    terminal.on('data', (chunk: Buffer) => (drawn += chunk.toString()));
    const lines: string[] = [];
    const portal = path.join(dir, 'bar');
    await ingest({
      file,
      portal,
      id: 'big',
      progress: (line) => lines.push(line),
      progressTerminal: terminal as unknown as NodeJS.WriteStream,
      progressEveryMs: 1,
    });
    expect(lines.every((line) => /^big: (\[[\d.]+ s\] |200000 records in)/.test(line))).to.equal(true);
    expect(drawn).to.match(/big: reading .* \[[█░]{20}\]/);
    expect(drawn).to.include('big: writing data.parquet [');
    // The last thing drawn clears the bar's line.
    expect(drawn.endsWith('\u001b[2K')).to.equal(true);
  });
});
