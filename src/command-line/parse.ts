// Values of flags: each parser returns the value or throws an Error saying what it expected, which
// the flag kit shows as one usage line naming the flag.
import bytes from 'bytes';

/** A TCP port, 0 (any free port) to 65535. */
export function port(text: string): number {
  if (!/^\d{1,5}$/.test(text.trim()) || Number(text) > 65535)
    throw new Error('expected a port number, 0 to 65535');
  return Number(text);
}

/** 0, 1, 2... */
export function wholeNumber(text: string): number {
  if (!/^\d+$/.test(text.trim())) throw new Error('expected a whole number, 0 or more');
  return Number(text);
}

/** 1, 2, 3... */
export function positiveNumber(text: string): number {
  const n = wholeNumber(text);
  if (n === 0) throw new Error('expected a whole number, 1 or more');
  return n;
}

/** A size such as 128MB, 2GB or 0, in bytes (powers of 1024, as the bytes package reads them). */
export function size(text: string): number {
  const parsed = /^\d+(\.\d+)?\s*([kmgtp]?b)?$/i.test(text.trim()) ? bytes.parse(text) : null;
  if (parsed === null) throw new Error('expected a size such as 128MB, 2GB or 0');
  return parsed;
}

/** A size as DuckDB reads it (384MB, 1GiB), kept as text for DuckDB. */
export function duckdbSize(text: string): string {
  if (!/^\d+(\.\d+)?\s*(B|[KMGT]i?B)$/i.test(text.trim()))
    throw new Error('expected a size such as 384MB or 1GiB');
  return text.trim();
}

/** Splits a comma list, dropping blanks. */
export function commaList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** A Redis server's URL: redis:// or rediss:// (TLS), a host, maybe a port, a password, a database. */
export function redisUrl(text: string): string {
  const url = URL.canParse(text) ? new URL(text) : null;
  if (!url || !['redis:', 'rediss:'].includes(url.protocol) || url.hostname === '')
    throw new Error('expected a Redis URL such as redis://127.0.0.1:6379');
  return text;
}
