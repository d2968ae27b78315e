// Which reader a source file needs: by its extension, else by its first bytes.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { firstBytes } from './text-encoding.js';

/** Source formats ingest reads, as named by `--format`. */
export const INPUT_FORMATS = [
  'csv',
  'tsv',
  'json',
  'jsonl',
  'geojson',
  'topojson',
  'parquet',
  'xlsx',
] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];
/** Formats DuckDB reads itself; a workbook is rewritten as CSV first, a topology as GeoJSON. */
export type ReadableFormat = Exclude<InputFormat, 'xlsx' | 'topojson'>;

/** Extensions that decide the format alone; `.json` is sniffed (array, lines, FeatureCollection or Topology). */
const FORMAT_BY_EXTENSION: Readonly<Record<string, InputFormat>> = {
  '.csv': 'csv',
  '.tsv': 'tsv',
  '.tab': 'tsv',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.geojson': 'geojson',
  '.topojson': 'topojson',
  '.parquet': 'parquet',
  '.xlsx': 'xlsx',
};

const SNIFF_BYTES = 64 * 1024;
const PARQUET_MAGIC = 'PAR1';

/** Refuses a missing, non-regular or empty file with a message naming it. */
export async function checkSourceFile(file: string): Promise<void> {
  const info = await stat(file).catch(() => null);
  if (!info) throw new Error(`${file}: no such file`);
  if (!info.isFile()) throw new Error(`${file}: not a regular file`);
  if (info.size === 0) throw new Error(`${file}: the file is empty (0 bytes)`);
}

/** Detects the format of `file`; a JSON object at the top is GeoJSON or TopoJSON by its `type`, else JSON lines. */
export async function detectInputFormat(file: string): Promise<InputFormat> {
  const extension = path.extname(file).toLowerCase();
  const byExtension = FORMAT_BY_EXTENSION[extension];
  if (byExtension) return byExtension;
  const head = await firstBytes(file, SNIFF_BYTES);
  if (head.subarray(0, 4).toString('latin1') === PARQUET_MAGIC) return 'parquet';
  const text = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (text.startsWith('{')) return topLevelKind(text) ?? 'jsonl';
  // A .json file that is not an object is read as an array, so that bad JSON is reported as such.
  return text.startsWith('[') || extension === '.json' ? 'json' : 'csv';
}

/** Top-level members that tell GeoJSON and TopoJSON documents (their writers put them first). */
const TOP_LEVEL_KINDS: readonly { pattern: RegExp; format: InputFormat }[] = [
  { pattern: /^"(features"|type"\s*:\s*"FeatureCollection")/, format: 'geojson' },
  { pattern: /^"(arcs"|type"\s*:\s*"Topology")/, format: 'topojson' },
];

/**
 * GeoJSON for a top-level `"type": "FeatureCollection"` or `"features"` key within the first
 * bytes, TopoJSON for a `"type": "Topology"` or `"arcs"`; null otherwise. Nested objects do not count.
 */
function topLevelKind(text: string): InputFormat | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') {
      const kind =
        depth === 1 ? TOP_LEVEL_KINDS.find((k) => k.pattern.test(text.slice(i, i + 40))) : undefined;
      if (kind) return kind.format;
      inString = true;
    } else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') depth--;
  }
  return null;
}

/** The format named by the user, checked. */
export function parseInputFormat(name: string): InputFormat {
  const format = INPUT_FORMATS.find((f) => f === name);
  if (!format)
    throw new Error(`unknown input format "${name}" (expected one of ${INPUT_FORMATS.join(', ')})`);
  return format;
}
