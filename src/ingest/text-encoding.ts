// Text sources arrive in UTF-8, UTF-16 or a legacy 8-bit code page; DuckDB reads only UTF-8.
import { isUtf8 } from 'node:buffer';
import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** Byte order marks that name an encoding other than UTF-8 (whose BOM DuckDB skips itself). */
const UTF16_BOMS: readonly { bytes: readonly number[]; encoding: TextEncoding }[] = [
  { bytes: [0xff, 0xfe], encoding: 'utf-16le' },
  { bytes: [0xfe, 0xff], encoding: 'utf-16be' },
];

/** The first `count` bytes of a file (fewer if it is shorter). */
export async function firstBytes(file: string, count: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(count);
    const { bytesRead } = await handle.read(buffer, 0, count, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Bytes read at a time when validating: the 64 KiB default took 160-240 ms for the 106 MB flights
 * CSV through a TextDecoder, 1 MiB chunks through isUtf8 44 ms (bench/README.md, ingest).
 */
const VALIDATE_CHUNK_BYTES = 1 << 20;

/** Bytes of a UTF-8 sequence its lead byte announces (1 for a byte that cannot lead: left to isUtf8 to refuse). */
function sequenceLength(lead: number): number {
  if (lead >= 0xf0) return 4;
  if (lead >= 0xe0) return 3;
  return lead >= 0xc0 ? 2 : 1;
}

/**
 * Where `chunk` stops being whole characters: before a last sequence cut by the chunk's end. A
 * cut at a lead byte splits valid UTF-8 into two valid parts, so each part is checked alone.
 */
export function wholeCharactersEnd(chunk: Uint8Array): number {
  for (let i = chunk.length - 1; i >= Math.max(0, chunk.length - 4); i--) {
    const byte = chunk[i]!;
    // A continuation byte (10xxxxxx) belongs to the sequence of a lead byte before it.
    if ((byte & 0xc0) === 0x80) continue;
    return i + sequenceLength(byte) > chunk.length ? i : chunk.length;
  }
  return chunk.length;
}

/** True when every byte of the file is valid UTF-8 (read as a stream, so any size works). */
export async function isValidUtf8(file: string, chunkBytes = VALIDATE_CHUNK_BYTES): Promise<boolean> {
  let carried: Buffer = Buffer.alloc(0);
  for await (const read of createReadStream(file, { highWaterMark: chunkBytes })) {
    const chunk = carried.length > 0 ? Buffer.concat([carried, read as Buffer]) : (read as Buffer);
    const end = wholeCharactersEnd(chunk);
    if (!isUtf8(chunk.subarray(0, end))) return false;
    carried = chunk.subarray(end);
  }
  return isUtf8(carried);
}

/**
 * The encoding of a text file: a UTF-16 BOM decides; otherwise UTF-8 when the whole file
 * validates, else windows-1252 (the superset of Latin-1 that spreadsheets actually write).
 */
export async function detectTextEncoding(file: string): Promise<TextEncoding> {
  const head = await firstBytes(file, 2);
  const bom = UTF16_BOMS.find((b) => b.bytes.every((byte, i) => head[i] === byte));
  if (bom) return bom.encoding;
  return (await isValidUtf8(file)) ? 'utf-8' : 'windows-1252';
}

/** Writes `file` decoded from `encoding` as UTF-8 to `target`, streaming (a UTF-16 BOM is dropped). */
export async function transcodeToUtf8(file: string, encoding: TextEncoding, target: string): Promise<void> {
  const decoder = new TextDecoder(encoding);
  await pipeline(
    createReadStream(file),
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) yield decoder.decode(chunk, { stream: true });
      yield decoder.decode();
    },
    createWriteStream(target),
  );
}

/** A UTF-8 version of a text source: the file itself, or a transcoded copy written into `workDir`. */
export async function utf8Source(
  file: string,
  workDir: string,
): Promise<{ readonly path: string; readonly encoding: TextEncoding }> {
  const encoding = await detectTextEncoding(file);
  if (encoding === 'utf-8') return { path: file, encoding };
  const target = path.join(workDir, `source-utf8${path.extname(file)}`);
  await transcodeToUtf8(file, encoding, target);
  return { path: target, encoding };
}
