// The downloads section (issue 42, item 2): the shared files of whole exports (docs/exports.md,
// Shared files) sent by duckportal against Debian's nginx sending the same files from the same
// disk. Per file (the 3M and 30M flights as CSV and Parquet): the first byte on a new connection,
// whole downloads by curl from each server in turns, and a download cut half-way then resumed by
// `curl -C -`, compared with the file; then hyparquet reading two columns of one row group of the
// 30M flights' Parquet by Range requests, the bytes on the wire counted by a proxy before the server.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { SHARED_EXPORT_HEADER } from '../src/api/shared-export-response.js';
import { startNginx, type Nginx } from '../test/helpers/deploy-tools.js';
import { readRowGroupLazily } from '../test/helpers/lazy-parquet.js';
import { freePort } from '../test/helpers/ports.js';
import { median, medianTurnsInRounds, servePortal, timeMs, type MeasuredRatio } from './harness.js';

const run = promisify(execFile);

/** The files measured: each dataset's whole export in its default form. */
const FILES = [
  ['flights', 'csv'],
  ['flights', 'parquet'],
  ['flights30m', 'csv'],
  ['flights30m', 'parquet'],
] as const;

/** Issue 42's targets: first byte p50, throughput against nginx, the lazy reader's share of the file. */
export const DOWNLOAD_TARGETS = { firstByteMs: 5, throughput: 0.8, lazyShare: 0.05 } as const;

/** First bytes timed per file and server (fresh connections, the two servers in turns). */
export const FIRST_BYTE_TURNS = 25;
/** How long the first export's writing of a shared file may take (the 30M CSV: 1.2 GB). */
const WRITE_WAIT_MS = 15 * 60_000;
/** The lazy reader's columns (of the middle row group) of the 30M flights' Parquet. */
const LAZY_COLUMNS = ['delay', 'origin'];

export interface DownloadResult {
  readonly dataset: string;
  readonly format: string;
  readonly bytes: number;
  /** p50 of the first body byte on a new connection, duckportal then nginx. */
  readonly firstByteMs: readonly [number, number];
  /** Median whole-download times by curl, duckportal then nginx. */
  readonly downloadMs: readonly [number, number];
  /** nginx's time over duckportal's: duckportal's throughput as a share of nginx's. */
  readonly throughput: MeasuredRatio;
  /** Where the cut download stopped, and whether `curl -C -` made it the whole file. */
  readonly cutAt: number;
  readonly resumedIdentical: boolean;
}

export interface LazyResult {
  readonly fileBytes: number;
  readonly rowGroups: number;
  readonly groupRows: number;
  /** Bytes from the server to the reader on the wire (headers included), and the requests. */
  readonly servedBytes: number;
  readonly requests: number;
  /** Rows the reader returned (the whole row group). */
  readonly rows: number;
}

export interface DownloadsResult {
  readonly files: readonly DownloadResult[];
  readonly lazy: LazyResult;
  readonly nginx: { readonly command: string; readonly config: string };
}

const exportRoute = (dataset: string, format: string): string =>
  `/api/explore/v2.1/catalog/datasets/${dataset}/exports/${format}`;

/** The status and headers of a GET, its body left unread (the connection closed). */
function headersOf(url: string): Promise<http.IncomingHttpHeaders> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false }, (response) => {
      resolve(response.headers);
      request.destroy();
    });
    request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
  });
}

/**
 * The shared file of `dataset`'s export in `format`: the first GET starts its writing, then it is
 * waited for until the export route answers with it. Its path (the newest of its variant).
 */
async function sharedFile(base: string, portalDir: string, dataset: string, format: string): Promise<string> {
  const url = base + exportRoute(dataset, format);
  const folder = path.join(portalDir, '.exports', dataset);
  for (let waited = 0; waited < WRITE_WAIT_MS; waited += 500) {
    if ((await headersOf(url))[SHARED_EXPORT_HEADER.toLowerCase()] === 'shared-file') {
      const names = (await readdir(folder)).filter((name) => name.endsWith(`.v2.1.${format}`));
      const dated = await Promise.all(
        names.map(async (name) => ({ name, mtime: (await stat(path.join(folder, name))).mtimeMs })),
      );
      const newest = dated.sort((a, b) => b.mtime - a.mtime)[0];
      if (newest) return path.join(folder, newest.name);
    }
    await sleep(500);
  }
  throw new Error(`${url} was not answered by a shared file within ${WRITE_WAIT_MS / 60_000} minutes`);
}

/** Milliseconds from a GET on a new connection to its first body byte. */
function firstByteMs(url: string): Promise<number> {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false }, (response) => {
      response.once('data', () => {
        resolve(Number(process.hrtime.bigint() - start) / 1e6);
        request.destroy();
      });
    });
    request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
  });
}

/** SHA-256 of a file. */
async function fileHash(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Downloads `url` into `file` and drops the connection once more than `bytes` came; the bytes kept. */
function cutDownload(url: string, file: string, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(file);
    let received = 0;
    const request = http.get(url, { agent: false }, (response) => {
      response.on('data', (chunk: Buffer) => {
        if (request.destroyed) return;
        out.write(chunk);
        received += chunk.length;
        if (received > bytes) {
          request.destroy();
          out.end(() => resolve(received));
        }
      });
      response.on('end', () => reject(new Error(`${url} ended before the cut`)));
    });
    request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
  });
}

/** A download of `url` cut half-way, resumed by `curl -C -`: where it was cut, and whether it equals `file`. */
async function resumed(url: string, file: string, size: number, dir: string) {
  const partial = path.join(dir, 'resumed');
  try {
    const cutAt = await cutDownload(url, partial, Math.floor(size / 2));
    await run('curl', ['-sSf', '-C', '-', '-o', partial, url]);
    const [got, expected] = await Promise.all([fileHash(partial), fileHash(file)]);
    return { cutAt, resumedIdentical: got === expected };
  } finally {
    await rm(partial, { force: true });
  }
}

/** First bytes, downloads in turns against nginx, and a resumed download, for each file. */
async function measureFiles(
  base: string,
  nginx: Nginx,
  files: readonly { dataset: string; format: string; file: string }[],
  runs: number,
  dir: string,
): Promise<DownloadResult[]> {
  const urls = files.map(({ dataset, format, file }) => [
    base + exportRoute(dataset, format),
    `${nginx.base}/${dataset}/${path.basename(file)}`,
  ]);
  const curl = (url: string) => () => run('curl', ['-sSf', '-o', '/dev/null', url]);
  const downloads = await medianTurnsInRounds(
    urls.map(([ours, theirs]) => [curl(ours!), curl(theirs!)] as const),
    runs,
  );
  const results: DownloadResult[] = [];
  for (const [i, { dataset, format, file }] of files.entries()) {
    const [ours, theirs] = urls[i]! as [string, string];
    const firstBytes: [number[], number[]] = [[], []];
    for (let turn = 0; turn < FIRST_BYTE_TURNS; turn++) {
      const order = turn % 2 === 0 ? [0, 1] : [1, 0];
      for (const side of order) firstBytes[side]!.push(await firstByteMs(side === 0 ? ours : theirs));
    }
    const { size } = await stat(file);
    const { medians, ratio } = downloads[i]!;
    results.push({
      dataset,
      format,
      bytes: size,
      firstByteMs: [median(firstBytes[0]), median(firstBytes[1])],
      downloadMs: medians,
      throughput: { ...ratio, ratio: 1 / ratio.ratio },
      ...(await resumed(ours, file, size, dir)),
    });
  }
  return results;
}

/** A TCP proxy to a loopback port counting the bytes its upstream sends. */
async function countingProxy(upstreamPort: number) {
  let served = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(upstreamPort, '127.0.0.1');
    upstream.on('data', (chunk: Buffer) => (served += chunk.length));
    client.pipe(upstream).pipe(client);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${port}`,
    served: () => served,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** hyparquet reading LAZY_COLUMNS of the middle row group of the 30M flights' shared Parquet through a counting proxy. */
async function lazyRead(port: number): Promise<LazyResult> {
  const proxy = await countingProxy(port);
  try {
    const url = proxy.base + exportRoute('flights30m', 'parquet');
    const read = await readRowGroupLazily(url, LAZY_COLUMNS, (groups) => Math.floor(groups.length / 2));
    return {
      fileBytes: read.fileBytes,
      rowGroups: read.groupRows.length,
      groupRows: read.groupRows[read.group]!,
      servedBytes: proxy.served(),
      requests: read.requests,
      rows: read.rows.length,
    };
  } finally {
    await proxy.close();
  }
}

/**
 * The downloads section on a server of its own (on `port`, with `args`) with shared files on, and
 * nginx over the same `.exports` folder; both stopped after.
 */
export async function benchDownloads(
  portalDir: string,
  port: number,
  threads: number,
  runs: number,
  args: readonly string[],
  log: (line: string) => void,
): Promise<DownloadsResult> {
  const served = await servePortal(portalDir, port, threads, args);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-downloads-'));
  let nginx: Nginx | null = null;
  try {
    const files: { dataset: string; format: string; file: string }[] = [];
    for (const [dataset, format] of FILES) {
      const ms = await timeMs(async () =>
        files.push({ dataset, format, file: await sharedFile(served.base, portalDir, dataset, format) }),
      );
      log(`bench: downloads: shared ${format} of ${dataset} there after ${(ms / 1000).toFixed(1)} s`);
    }
    nginx = await startNginx(dir, path.join(portalDir, '.exports'));
    const measured = await measureFiles(served.base, nginx, files, runs, dir);
    return {
      files: measured,
      lazy: await lazyRead(port),
      nginx: { command: nginx.command, config: nginx.config },
    };
  } finally {
    await nginx?.stop();
    await served.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
