// The dBASE III table of a shapefile: field descriptors sized from the data, fixed-width records.
import type { CellKind } from './sql-cells.js';

/** One dBASE field: name (10 bytes at most), type letter, width and decimals. */
export interface DbfField {
  readonly name: string;
  readonly type: 'C' | 'N' | 'L' | 'D';
  readonly width: number;
  readonly decimals: number;
  readonly kind: CellKind;
}

/** Field names cut to 10 bytes and made unique. */
export function dbfNames(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((name, i) => {
    let candidate = name.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 10) || `field${i}`;
    for (let n = 1; used.has(candidate.toLowerCase()); n++)
      candidate = `${candidate.slice(0, 10 - String(n).length)}${n}`;
    used.add(candidate.toLowerCase());
    return candidate;
  });
}

/** Whether a kind is written as text (a C field, sized from the data): dBASE III has no time of day. */
export const dbfTextual = (kind: CellKind): boolean =>
  kind === 'text' || kind === 'list' || kind === 'datetime';

/** A field of a kind; `textBytes` is the longest text value in bytes (for C fields). */
export function dbfField(name: string, kind: CellKind, textBytes: number): DbfField {
  if (kind === 'int') return { name, type: 'N', width: 20, decimals: 0, kind };
  if (kind === 'double') return { name, type: 'N', width: 24, decimals: 10, kind };
  if (kind === 'bool') return { name, type: 'L', width: 1, decimals: 0, kind };
  if (kind === 'date') return { name, type: 'D', width: 8, decimals: 0, kind };
  return { name, type: 'C', width: Math.min(Math.max(textBytes, 1), 254), decimals: 0, kind };
}

/** The header of the table (record count written once known). */
export function dbfHeader(fields: readonly DbfField[], records: number): Buffer {
  const header = Buffer.alloc(32 + fields.length * 32 + 1);
  const now = new Date();
  header.writeUInt8(0x03, 0);
  header.writeUInt8(now.getUTCFullYear() - 1900, 1);
  header.writeUInt8(now.getUTCMonth() + 1, 2);
  header.writeUInt8(now.getUTCDate(), 3);
  header.writeUInt32LE(records, 4);
  header.writeUInt16LE(header.length, 8);
  header.writeUInt16LE(1 + fields.reduce((sum, f) => sum + f.width, 0), 10);
  header.writeUInt8(0x57, 29); // language driver: UTF-8 is declared by the .cpg file
  fields.forEach((field, i) => {
    const at = 32 + i * 32;
    header.write(field.name, at, 10, 'latin1');
    header.write(field.type, at + 11, 1, 'latin1');
    header.writeUInt8(field.width, at + 16);
    header.writeUInt8(field.decimals, at + 17);
  });
  header.writeUInt8(0x0d, header.length - 1);
  return header;
}

/** UTF-8 bytes cut to `width` without splitting a character. */
function fitted(text: string, width: number): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= width) return bytes;
  let end = width;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}

/** A cell value as text (the engine hands over strings, numbers, bigints, booleans or lists). */
const asText = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return `${value}`;
  return JSON.stringify(value);
};

/** The cell bytes of one value: numbers right-aligned, text left-aligned, blanks for null. */
function cell(field: DbfField, value: unknown, separator: string): Buffer {
  const out = Buffer.alloc(field.width, 0x20);
  if (value === null || value === undefined) return out;
  if (field.type === 'L') return Buffer.from(value ? 'T' : 'F');
  // YYYYMMDD from the date's ISO text; a year beyond four digits cannot be written: blank.
  if (field.type === 'D')
    return /^\d{4}-\d\d-\d\d$/.test(asText(value)) ? Buffer.from(asText(value).replaceAll('-', '')) : out;
  if (field.type === 'N') {
    const n = Number(value);
    let text = field.decimals > 0 ? n.toFixed(field.decimals) : asText(value);
    if (text.length > field.width) text = n.toPrecision(12);
    out.write(text, field.width - Math.min(text.length, field.width), 'latin1');
    return out;
  }
  const text = Array.isArray(value) ? value.join(separator) : asText(value);
  fitted(text, field.width).copy(out);
  return out;
}

/** One record: the deletion flag then each field's cell. */
export function dbfRecord(
  fields: readonly DbfField[],
  values: readonly unknown[],
  separator: string,
): Buffer {
  return Buffer.concat([Buffer.from(' '), ...fields.map((f, i) => cell(f, values[i], separator))]);
}
