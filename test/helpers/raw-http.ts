// A GET whose request is sent as written (repeated headers, an absolute URI as request target)
// and whose answer is read as sent (fetch would decode a compressed body and merge headers).
import http from 'node:http';
import zlib from 'node:zlib';

/** An answer as sent: status, headers, and the body's bytes, not decoded. */
export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * GETs `route` from the server at `base`: `route` is a path, or an absolute URI sent as the
 * request target; `headers` an object, or name/value pairs in which a name may repeat
 * (`['Host', 'a.test', 'Host', 'b.test']`). Without a Host of its own, the request has `base`'s.
 */
export function rawGet(
  base: string,
  route: string,
  headers: Record<string, string> | readonly string[] = {},
  agent?: http.Agent,
): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    http
      .get(
        {
          hostname,
          port,
          path: route,
          headers: headers as http.OutgoingHttpHeaders,
          ...(agent && { agent }),
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
          );
          // An answer cut after its headers (ECONNRESET, "aborted").
          response.on('error', reject);
        },
      )
      .on('error', reject);
  });
}

/** A body as sent, decoded as its Content-Encoding says (gzip, br, or none). */
export function decodedBody(headers: http.IncomingHttpHeaders, body: Buffer): string {
  const coding = headers['content-encoding'];
  if (coding === 'gzip') return zlib.gunzipSync(body).toString();
  if (coding === 'br') return zlib.brotliDecompressSync(body).toString();
  if (coding !== undefined) throw new Error(`a coding no client asked for: ${coding}`);
  return body.toString();
}
