// ClickHouse's lines handed to the Parquet encoder (src/engine/clickhouse/written-copy.ts): every
// byte passed on in order, a chunk's bytes after its last newline held until the next newline, a
// line longer than many chunks held as its chunks (never joined at each one), and an answer that
// ends inside a line reported as cut.
import { expect } from 'chai';
import { Readable } from 'node:stream';
import { WholeLines } from '../../src/engine/clickhouse/written-copy.js';

/** What WholeLines gives for `chunks`: its output chunks as emitted, and the error it ends with. */
function through(chunks: readonly string[]): Promise<{ out: Buffer[]; error?: Error }> {
  const lines = new WholeLines();
  Readable.from(chunks.map((chunk) => Buffer.from(chunk))).pipe(lines);
  const out: Buffer[] = [];
  lines.on('data', (chunk: Buffer) => out.push(chunk));
  return new Promise((resolve) => {
    lines.once('end', () => resolve({ out }));
    lines.once('error', (error) => resolve({ out, error }));
  });
}

describe('ClickHouse lines for the Parquet encoder', () => {
  it('passes every byte on in order', async () => {
    const { out, error } = await through(['a,1\nb,', '2\nc', ',3\n', 'd,4\n']);
    expect(error).to.equal(undefined);
    expect(Buffer.concat(out).toString()).to.equal('a,1\nb,2\nc,3\nd,4\n');
  });

  it('holds a line longer than many chunks as its chunks, the same buffers passed on', async () => {
    const pieces = Array.from({ length: 500 }, (_, i) => `${'x'.repeat(1000)}${i}`);
    const { out, error } = await through(['head\n', ...pieces, '\ntail\n']);
    expect(error).to.equal(undefined);
    expect(Buffer.concat(out).toString()).to.equal(`head\n${pieces.join('')}\ntail\n`);
    // No chunk was joined with another: the held pieces come out one by one.
    expect(out.filter((chunk) => chunk.length >= 1000).length).to.equal(500);
  });

  it('reports an answer cut inside a line', async () => {
    const { out, error } = await through(['a,1\nb,', '2\nc,']);
    expect(error?.message).to.match(/ends inside a line/);
    expect(Buffer.concat(out).toString()).to.equal('a,1\nb,2\n');
  });
});
