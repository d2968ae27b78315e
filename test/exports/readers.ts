// Real readers for exported files in tests: GDAL's ogrinfo, raptor's rapper, and file helpers.
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A fresh temp folder for one suite's downloads. */
export const tempFolder = (): Promise<string> => mkdtemp(path.join(os.tmpdir(), 'duckportal-exports-'));

/** Writes bytes to `dir/name` and returns the path. */
export async function saved(dir: string, name: string, bytes: Buffer): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return file;
}

/** ogrinfo's summary of a file's first layer: feature count, geometry type, and the raw text. */
export async function ogrSummary(
  file: string,
  layer?: string,
): Promise<{ count: number; geometry: string; text: string }> {
  const { stdout } = await run('ogrinfo', ['-ro', '-so', file, ...(layer ? [layer] : ['-al'])]);
  const count = Number(/Feature Count: (\d+)/.exec(stdout)?.[1] ?? NaN);
  const geometry = /Geometry: (.+)/.exec(stdout)?.[1] ?? '';
  return { count, geometry, text: stdout };
}

/** ogrinfo's full dump of the features matching an attribute filter. */
export async function ogrFeatures(file: string, where: string, layer?: string): Promise<string> {
  const { stdout } = await run('ogrinfo', ['-ro', '-where', where, file, ...(layer ? [layer] : ['-al'])], {
    maxBuffer: 64 << 20,
  });
  return stdout;
}

/** The number of triples rapper parses from a file in `syntax` (it fails on a syntax error). */
export async function rapperTriples(file: string, syntax: 'turtle' | 'rdfxml' | 'ntriples'): Promise<number> {
  const { stderr } = await run('rapper', ['-i', syntax, '-c', file]);
  return Number(/returned (\d+) triples/.exec(stderr)?.[1] ?? NaN);
}

/** rapper's N-Triples of a file (to look for exact statements). */
export async function rapperNTriples(file: string, syntax: 'turtle' | 'rdfxml'): Promise<string> {
  const { stdout } = await run('rapper', ['-q', '-i', syntax, '-o', 'ntriples', file], {
    maxBuffer: 256 << 20,
  });
  return stdout;
}
