// A ClickHouse answer's body as the engine reads it (checkedBody in src/engine/clickhouse/failures.ts):
// ClickHouse 18.16 writes it in chunks of 4 KB, passed on joined into chunks of 256 KB or more with
// every byte in order; the failure trailer ClickHouse writes after rows is the stream's error, found
// however many chunks came before it.
import { expect } from 'chai';
import { Readable } from 'node:stream';
import { QueryOutOfMemory } from '../../src/engine/engine.js';
import { checkedBody } from '../../src/engine/clickhouse/failures.js';

/** `bytes` cut into chunks of 4 KB, as ClickHouse 18.16 writes an HTTP answer. */
function inChunks(bytes: Buffer): Buffer[] {
  return Array.from({ length: Math.ceil(bytes.length / 4096) }, (_, i) =>
    bytes.subarray(i * 4096, (i + 1) * 4096),
  );
}

/** The chunks checkedBody passes on for `chunks`, and the error it ends with. */
async function read(chunks: readonly Buffer[]): Promise<{ out: Buffer[]; error?: Error }> {
  const out: Buffer[] = [];
  try {
    for await (const chunk of checkedBody(Readable.from(chunks), new AbortController().signal))
      out.push(chunk as Buffer);
    return { out };
  } catch (error) {
    return { out, error: error as Error };
  }
}

/** Lines of CSV, `bytes` of them or a little more. */
const rows = (bytes: number): Buffer =>
  Buffer.from(
    Array.from({ length: Math.ceil(bytes / 16) }, (_, i) => `${String(i).padStart(9, '0')},"ab"\n`).join(''),
  );

describe("ClickHouse's answer body", () => {
  it('passes 4 KB chunks on joined into chunks of 256 KB or more, every byte in order', async () => {
    const body = rows(3_000_000);
    const { out, error } = await read(inChunks(body));
    expect(error).to.equal(undefined);
    expect(Buffer.concat(out).equals(body)).to.equal(true);
    // All but the last (the held 64 KB and what came after the last join).
    for (const chunk of out.slice(0, -1)) expect(chunk.length).to.be.at.least(256 * 1024);
    expect(out.length).to.be.at.most(Math.ceil(body.length / (256 * 1024)) + 1);
  });

  it('passes a short answer on whole at its end', async () => {
    const body = rows(10_000);
    const { out, error } = await read(inChunks(body));
    expect(error).to.equal(undefined);
    expect(Buffer.concat(out).equals(body)).to.equal(true);
  });

  it("makes ClickHouse's failure after 3 MB of rows the stream's error", async () => {
    const trailer =
      'Code: 241, e.displayText() = DB::Exception: Memory limit (for query) exceeded, e.what() = DB::Exception\n';
    const body = rows(3_000_000);
    const { out, error } = await read(inChunks(Buffer.concat([body, Buffer.from(trailer)])));
    expect(error).to.be.instanceOf(QueryOutOfMemory);
    // The rows before the last 64 KB were passed on, none of the trailer.
    const passed = Buffer.concat(out);
    expect(passed.length).to.be.within(body.length - 64 * 1024 - 256 * 1024, body.length);
    expect(body.subarray(0, passed.length).equals(passed)).to.equal(true);
  });
});
