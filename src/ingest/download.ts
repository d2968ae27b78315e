// Sources given as http:// or https:// URLs: streamed to a temporary file (bounded in bytes, cut
// off when the server stalls, hashed on the way), then ingested like any file; the folder is
// removed after. A refresh asks with the validators of its last download: a 304 is NotModified.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Default of `--max-download`: 2 GiB. */
export const DEFAULT_MAX_DOWNLOAD = 2 * 1024 ** 3;

/** A download that receives nothing for this long is abandoned. */
const STALL_MS = 30_000;

/** Progress lines at most this often. */
const PROGRESS_MS = 2_000;

export interface DownloadOptions {
  readonly maxBytes: number;
  readonly progress?: (line: string) => void;
  /** Tests shorten the stall timeout. */
  readonly stallMs?: number;
  /** The ETag of the copy held: sent as If-None-Match. */
  readonly etag?: string | null;
  /** The Last-Modified of the copy held: sent as If-Modified-Since. */
  readonly lastModified?: string | null;
}

/** What a download said of its bytes: the URL, the server's validators and the bytes' SHA-256. */
export interface DownloadFacts {
  readonly url: string;
  readonly etag: string | null;
  readonly lastModified: string | null;
  readonly sha256: string;
}

/** The server answered 304 Not Modified to a download asked with validators: the copy held is current. */
export class NotModified extends Error {
  constructor(readonly url: string) {
    super(`${url}: not modified`);
  }
}

/** True for the sources that are downloaded first. */
export function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** The file name a URL's path ends with (its extension tells the format), or `download`. */
function fileNameOf(url: URL): string {
  const base = decodeURIComponent(path.posix.basename(url.pathname));
  const safe = base.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  return safe === '' ? 'download' : safe;
}

const mib = (bytes: number): string =>
  bytes < 2 ** 20 ? `${bytes} bytes` : `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/**
 * Runs `work` on a local copy of `source` (a URL), removing the copy after, whatever happens.
 * Errors name the URL: a status other than 2xx, a body over `maxBytes`, a stall, a refused host.
 */
export async function withDownload<T>(
  source: string,
  options: DownloadOptions,
  work: (file: string, facts: DownloadFacts) => Promise<T>,
): Promise<T> {
  const url = new URL(source);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-download-'));
  try {
    const file = path.join(dir, fileNameOf(url));
    return await work(file, await download(url, file, options));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The request headers asking for the bytes only when they differ from the copy held. */
function conditions(options: DownloadOptions): Record<string, string> {
  return {
    ...(options.etag ? { 'If-None-Match': options.etag } : {}),
    ...(options.lastModified ? { 'If-Modified-Since': options.lastModified } : {}),
  };
}

async function download(url: URL, file: string, options: DownloadOptions): Promise<DownloadFacts> {
  const stall = new AbortController();
  let timer = setTimeout(() => stall.abort(), options.stallMs ?? STALL_MS);
  const alive = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => stall.abort(), options.stallMs ?? STALL_MS);
  };
  const fail = (why: string): Error => new Error(`${url.href}: ${why}`);
  try {
    const headers = conditions(options);
    const response = await fetch(url, { signal: stall.signal, redirect: 'follow', headers }).catch(
      (error: unknown) => {
        throw fail(stall.signal.aborted ? 'no answer' : `cannot download (${causeOf(error)})`);
      },
    );
    if (response.status === 304 && Object.keys(headers).length > 0) throw new NotModified(url.href);
    if (!response.ok || !response.body) throw fail(`HTTP ${response.status} ${response.statusText}`.trim());
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > options.maxBytes) {
      throw fail(`${mib(declared)} is over --max-download (${mib(options.maxBytes)})`);
    }
    let received = 0;
    let said = Date.now();
    const hash = createHash('sha256');
    const meter = new Transform({
      transform(chunk: Buffer, _, callback) {
        alive();
        received += chunk.length;
        if (received > options.maxBytes) {
          callback(fail(`more than --max-download (${mib(options.maxBytes)})`));
          return;
        }
        if (options.progress && Date.now() - said >= PROGRESS_MS) {
          said = Date.now();
          const of = Number.isFinite(declared) ? ` of ${mib(declared)}` : '';
          options.progress(`downloading ${url.href}: ${mib(received)}${of}`);
        }
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(response.body as never), meter, createWriteStream(file)).catch(
      (error: unknown) => {
        if (error instanceof Error && error.message.startsWith(url.href)) throw error;
        throw fail(stall.signal.aborted ? 'the download stalled' : `download failed (${causeOf(error)})`);
      },
    );
    options.progress?.(`downloaded ${url.href}: ${mib(received)}`);
    const header = (name: string): string | null => response.headers.get(name);
    return {
      url: url.href,
      etag: header('etag'),
      lastModified: header('last-modified'),
      sha256: hash.digest('hex'),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** The innermost message of a fetch error (undici wraps the socket's). */
function causeOf(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}
