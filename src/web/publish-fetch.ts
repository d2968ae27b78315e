// A source given as a URL on the account page, fetched by the server into a draft's folder:
// http and https only, at most 5 redirects, bounded in bytes, abandoned when it stalls; and,
// unless the operator allows them (`--allow-private-urls`), never to a loopback, private,
// link-local or otherwise unroutable address: the check is made on the addresses the name resolves
// to, at connect time, for every hop, so neither a redirect nor a name that resolves to
// 127.0.0.1 reaches the server's own network (SSRF).
import { createWriteStream } from 'node:fs';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PublishError } from './publish-errors.js';

/** Redirects followed before giving up. */
const MAX_REDIRECTS = 5;

/** A fetch that receives nothing for this long is abandoned. */
const STALL_MS = 30_000;

/** Addresses no URL may reach unless private URLs are allowed (RFC 6890's special ranges). */
const FORBIDDEN = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  FORBIDDEN.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  FORBIDDEN.addSubnet(address, prefix, 'ipv6');

/** Whether `address` (an IP literal) is one no URL may reach. */
export function isForbiddenAddress(address: string): boolean {
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is checked as the IPv4 address it is.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return FORBIDDEN.check(mapped, 'ipv4');
  const family = net.isIP(address);
  if (family === 0) return true;
  return FORBIDDEN.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const refusedAddress = (host: string, address: string): PublishError =>
  new PublishError(
    400,
    `${host} is a loopback, private or reserved address (${address}): the server does not fetch from its own network.`,
  );

/** dns.lookup, failing when any address found is forbidden (the connection then never starts). */
const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 4);
    const bad = addresses.find((entry) => isForbiddenAddress(entry.address));
    if (bad) return callback(refusedAddress(hostname, bad.address), '', 4);
    if (options.all) return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
};

export interface FetchLimits {
  readonly maxBytes: number;
  readonly allowPrivate: boolean;
  /** Tests shorten the stall timeout. */
  readonly stallMs?: number;
}

/** The URL the user typed, if it is one the server may fetch; else a 400 naming why. */
export function fetchableUrl(text: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new PublishError(400, `"${text.slice(0, 200)}" is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new PublishError(400, `Only http and https URLs can be fetched, not ${url.protocol.slice(0, 20)}`);
  if (url.username || url.password)
    throw new PublishError(400, 'A URL with a user name or password is refused.');
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && net.isIP(literal) !== 0 && isForbiddenAddress(literal))
    throw refusedAddress(url.hostname, literal);
  return url;
}

/** The response to a GET of `url`, its host's addresses checked unless private ones are allowed. */
function get(url: URL, limits: FetchLimits): Promise<http.IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(
      url,
      { ...(limits.allowPrivate ? {} : { lookup: guardedLookup }), headers: { 'User-Agent': 'duckportal' } },
      resolve,
    );
    request.setTimeout(limits.stallMs ?? STALL_MS, () => request.destroy(new Error('no answer')));
    request.on('error', reject);
  });
}

/** The response at the end of the redirects from `url`, or an error naming what went wrong. */
async function follow(url: URL, limits: FetchLimits): Promise<{ url: URL; response: http.IncomingMessage }> {
  let current = url;
  for (let hop = 0; ; hop++) {
    const response = await get(current, limits).catch((error: unknown) => {
      if (error instanceof PublishError) throw error;
      throw new PublishError(502, `${current.href}: cannot fetch (${(error as Error).message})`);
    });
    const location = response.headers.location;
    if (
      response.statusCode === undefined ||
      response.statusCode < 300 ||
      response.statusCode >= 400 ||
      !location
    )
      return { url: current, response };
    response.resume();
    if (hop === MAX_REDIRECTS)
      throw new PublishError(502, `${url.href}: more than ${MAX_REDIRECTS} redirects`);
    current = fetchableUrl(new URL(location, current).href, limits.allowPrivate);
  }
}

/** Fetches `url` into `file`; returns the URL fetched last (after redirects). */
export async function fetchToFile(url: URL, file: string, limits: FetchLimits): Promise<URL> {
  const { url: last, response } = await follow(url, limits);
  const status = response.statusCode ?? 0;
  if (status < 200 || status >= 300) {
    response.resume();
    throw new PublishError(502, `${last.href}: HTTP ${status} ${response.statusMessage ?? ''}`.trim());
  }
  const tooLarge = () =>
    new PublishError(413, `${last.href} is larger than the limit of ${limits.maxBytes} bytes.`);
  if (Number(response.headers['content-length'] ?? 0) > limits.maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  let received = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      callback(received > limits.maxBytes ? tooLarge() : null, chunk);
    },
  });
  await pipeline(response, meter, createWriteStream(file)).catch((error: unknown) => {
    if (error instanceof PublishError) throw error;
    throw new PublishError(502, `${last.href}: the transfer failed (${(error as Error).message})`);
  });
  return last;
}
