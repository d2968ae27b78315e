// Text sources arrive in UTF-8, UTF-16 or a legacy 8-bit code page; DuckDB reads only UTF-8.
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

/** True when every byte of the file is valid UTF-8 (read as a stream, so any size works). */
async function isValidUtf8(file: string): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of createReadStream(file)) decoder.decode(chunk as Buffer, { stream: true });
    decoder.decode();
    return true;
  } catch (error) {
    if (error instanceof TypeError) return false;
    throw error;
  }
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
