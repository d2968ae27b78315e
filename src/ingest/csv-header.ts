// The header record of a delimited text file, read by us: DuckDB's sniffer renames duplicate
// or empty headers and guesses wrong on ragged files, so the dialect is decided here.
import { open } from 'node:fs/promises';

/** Delimiters tried for a .csv, in order of preference when counts tie. */
const CSV_DELIMITERS = [',', ';', '\t', '|'] as const;

const HEADER_BYTES = 1024 * 1024;

export interface CsvHeader {
  readonly delimiter: string;
  /** Header cells as written (white space collapsed), one per column. */
  readonly labels: readonly string[];
}

async function readHeadText(file: string): Promise<{ text: string; whole: boolean }> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0);
    const text = buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
    return { text, whole: bytesRead < HEADER_BYTES };
  } finally {
    await handle.close();
  }
}

/**
 * Where text holds what no text file does: a NUL, or more than one character in a hundred that
 * is a control other than tab, line feed, vertical tab, form feed and carriage return.
 */
export function binaryEvidence(text: string): string | null {
  let controls = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0) return `a NUL byte at character ${i + 1}`;
    if (code < 0x20 && (code < 0x09 || code > 0x0d)) controls++;
  }
  return controls * 100 > text.length ? `${controls} control characters in its first ${text.length}` : null;
}

/** Splits the first record of `text` on `delimiter`, honouring quotes (doubled quotes, embedded newlines). */
export function parseFirstRecord(text: string, delimiter: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted && char === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (quoted || (char !== delimiter && char !== '\n' && char !== '\r')) {
      cell += char;
    } else if (char === delimiter) {
      cells.push(cell);
      cell = '';
    } else {
      break;
    }
  }
  cells.push(cell);
  return cells;
}

/** The delimiter that splits the first record into the most cells (`,` when none splits it). */
export function guessDelimiter(text: string): string {
  let best: string = CSV_DELIMITERS[0];
  let bestCount = 1;
  for (const delimiter of CSV_DELIMITERS) {
    const count = parseFirstRecord(text, delimiter).length;
    if (count > bestCount) {
      best = delimiter;
      bestCount = count;
    }
  }
  return best;
}

/** Reads the header of `file`; `delimiter` is guessed when not given; errors name `displayName`. */
export async function readCsvHeader(
  file: string,
  displayName: string,
  delimiter?: string,
): Promise<CsvHeader> {
  const { text, whole } = await readHeadText(file);
  const binary = binaryEvidence(text);
  if (binary) throw new Error(`${displayName}: binary data, not text (${binary})`);
  if (text.trim() === '') throw new Error(`${displayName}: no header line (the file holds only white space)`);
  if (!whole && !/[\r\n]/.test(text)) {
    throw new Error(`${displayName}: line 1: longer than ${HEADER_BYTES / 2 ** 20} MiB, not a header`);
  }
  const chosen = delimiter ?? guessDelimiter(text);
  // A header cell may hold line breaks; a label is one line.
  const labels = parseFirstRecord(text, chosen).map((label) => label.replace(/\s+/g, ' ').trim());
  return { delimiter: chosen, labels };
}
