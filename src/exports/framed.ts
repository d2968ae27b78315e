// A stream between a head and a tail, keeping failure semantics: an error mid-way breaks the
// result, and a consumer gone destroys the source.
import { PassThrough, type Readable } from 'node:stream';

/** `head`, the bytes of `source`, then `tail`. */
export function framed(source: Readable, head: string | Buffer, tail: string | Buffer): Readable {
  const body = new PassThrough({ highWaterMark: 1 << 20 });
  if (head.length > 0) body.write(head);
  source.pipe(body, { end: false });
  source.once('end', () => body.end(tail.length > 0 ? tail : undefined));
  source.once('error', (error) => body.destroy(error));
  body.once('close', () => source.destroy());
  return body;
}
