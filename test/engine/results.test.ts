// The engine interface's result shapes, on DuckDB's engine over an all-kinds fixture: a chunk's
// JS values and its Arrow layout (validity, zeroed null slots, offsets), chunking of a long
// result, and each CopyFormat's bytes. A second engine must give the same answers.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DuckDBEngine } from '../../src/engine/duckdb/engine.js';
import type { Chunk, ColumnArrays, Utf8Arrays } from '../../src/engine/engine.js';

/** Three rows: values, nulls, edge values (an empty string and list, a day before 1970). */
const FIXTURE = `SELECT * FROM (VALUES
  (1::BIGINT, 0.5::DOUBLE, true, DATE '2024-02-29', TIMESTAMPTZ '2024-02-29 12:34:56.789+00',
   'short', 'longer than twelve bytes: é', ['a', NULL, 'an item longer than twelve'], 12.50::DECIMAL(5, 2)),
  (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (-3, -2.5, false, DATE '1969-12-31', TIMESTAMPTZ '1970-01-01 00:00:00+00', '', 'x', [], -1.25)
) t(i, d, b, day, ts, s, long, list, dec)`;

const text = new TextDecoder();

/** The strings of UTF-8 arrays (null where the validity says so). */
function strings(arrays: Utf8Arrays): (string | null)[] {
  return Array.from({ length: arrays.valueOffsets.length - 1 }, (_, i) =>
    arrays.nullBitmap && !((arrays.nullBitmap[i >> 3]! >> (i & 7)) & 1)
      ? null
      : text.decode(arrays.data.subarray(arrays.valueOffsets[i], arrays.valueOffsets[i + 1])),
  );
}

/** A column's arrays without the bitmap (compared apart) and with typed arrays as plain ones. */
function plain(arrays: ColumnArrays): Record<string, unknown> {
  const { nullBitmap, ...rest } = arrays;
  return {
    ...Object.fromEntries(
      Object.entries(rest).map(([k, v]) => [k, ArrayBuffer.isView(v) ? [...(v as Int32Array)] : v]),
    ),
    // The bits of the first three rows: DuckDB leaves those past the last row set.
    validity: nullBitmap ? nullBitmap[0]! & 0b111 : null,
  };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

describe('engine results (DuckDB)', () => {
  let dir: string;
  let engine: DuckDBEngine;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-chunks-'));
    engine = await DuckDBEngine.open({
      allowedDirectories: [dir],
      tempDirectory: path.join(dir, 'tmp'),
      threads: 1,
    });
  });
  after(async () => {
    engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The chunks of `sql`, read while its export connection is held. */
  const chunksOf = <T>(sql: string, read: (chunk: Chunk) => T): Promise<T[]> =>
    engine.withExportConnection(async (connection) => {
      const read_: T[] = [];
      for await (const chunk of connection.chunks(sql)) read_.push(read(chunk));
      return read_;
    }, new AbortController().signal);

  it('hands JS values: numbers, bigints, booleans, strings, lists as arrays, other values as text', async () => {
    const [columns] = await chunksOf(FIXTURE, (chunk) =>
      Array.from({ length: 9 }, (_, i) => chunk.values(i)),
    );
    expect(columns).to.deep.equal([
      [1n, null, -3n],
      [0.5, null, -2.5],
      [true, null, false],
      ['2024-02-29', null, '1969-12-31'],
      ['2024-02-29 12:34:56.789+00', null, '1970-01-01 00:00:00+00'],
      ['short', null, ''],
      ['longer than twelve bytes: é', null, 'x'],
      [['a', null, 'an item longer than twelve'], null, []],
      ['12.50', null, '-1.25'],
    ]);
  });

  it("hands Arrow's layout: values, validity bits, null slots zeroed, UTF-8 offsets", async () => {
    const [columns] = await chunksOf(FIXTURE, (chunk) =>
      Array.from({ length: 8 }, (_, i) => chunk.arrays(i)),
    );
    const [i, d, b, day, ts, s, long, listColumn] = columns!;
    const micros = BigInt(Date.UTC(2024, 1, 29, 12, 34, 56, 789)) * 1000n;
    expect([i!, d!, b!, day!, ts!].map(plain)).to.deep.equal([
      { type: 'int64', values: [1n, 0n, -3n], nullCount: 1, validity: 0b101 },
      { type: 'float64', values: [0.5, 0, -2.5], nullCount: 1, validity: 0b101 },
      { type: 'bool', values: [0b001], nullCount: 1, validity: 0b101 },
      { type: 'date32', values: [Date.UTC(2024, 1, 29) / 86_400_000, 0, -1], nullCount: 1, validity: 0b101 },
      { type: 'timestamp_us', values: [micros, 0n, 0n], nullCount: 1, validity: 0b101 },
    ]);
    expect([s, long].map((c) => strings(c as Utf8Arrays))).to.deep.equal([
      ['short', null, ''],
      ['longer than twelve bytes: é', null, 'x'],
    ]);
    const list = listColumn!;
    if (list.type !== 'list') expect.fail(`a list column came as ${list.type}`);
    expect({
      offsets: [...list.valueOffsets],
      nullCount: list.nullCount,
      items: strings(list.child),
    }).to.deep.equal({
      offsets: [0, 3, 3, 3],
      nullCount: 1,
      items: ['a', null, 'an item longer than twelve'],
    });
  });

  it('refuses an Arrow layout for a type that has none here', async () => {
    let error: unknown;
    await chunksOf(FIXTURE, (chunk) => chunk.arrays(8)).catch((e: unknown) => (error = e));
    expect(String(error)).to.match(/no Arrow layout for DuckDB type DECIMAL/);
  });

  it('streams a long result in several chunks, every row once and in order', async () => {
    const chunks = await chunksOf('SELECT range AS n FROM range(5000)', (chunk) => chunk.values(0));
    expect(chunks.length).to.be.greaterThan(1);
    expect(chunks.flat()).to.deep.equal(Array.from({ length: 5000 }, (_, n) => BigInt(n)));
  });

  it('copies a result in each CopyFormat', async () => {
    const signal = new AbortController().signal;
    const sql = `SELECT 1 AS a, 'x;y' AS "b c" UNION ALL SELECT 2, NULL ORDER BY a`;
    const copy = async (format: Parameters<DuckDBEngine['copyToStream']>[1]) =>
      (await readAll(await engine.copyToStream(sql, format, signal, { head: '<', tail: '>' }))).toString();
    expect({
      csv: await copy({ format: 'csv', delimiter: ';', forceQuote: [] }),
      quoted: await copy({ format: 'csv', delimiter: ',', forceQuote: ['b c'] }),
      array: await copy({ format: 'json', array: true }),
      lines: await copy({ format: 'json', array: false }),
    }).to.deep.equal({
      csv: '<a;b c\n1;"x;y"\n2;\n>',
      quoted: '<a,"b c"\n1,"x;y"\n2,\n>',
      array: '<[\n\t{"a":1,"b c":"x;y"},\n\t{"a":2,"b c":null}\n]\n>',
      lines: '<{"a":1,"b c":"x;y"}\n{"a":2,"b c":null}\n>',
    });
    const parquet = await readAll(
      await engine.copyToStream(sql, { format: 'parquet', compression: 'zstd' }, signal),
    );
    expect([parquet.subarray(0, 4).toString(), parquet.subarray(-4).toString()]).to.deep.equal([
      'PAR1',
      'PAR1',
    ]);
  });
});
