// Clients that leave: downloads dropped part-way, and waiting for the server to notice.
import http from 'node:http';

/**
 * Starts a download and drops the connection once more than `bytes` bytes came (from
 * `localAddress`, a caller of its own, when given). Rejects on a non-200 or a body that ends first.
 */
export function dropAfter(url: string, bytes: number, localAddress?: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const options = { agent: false, ...(localAddress && { localAddress }) };
    const request = http.get(url, options, (response) => {
      if (response.statusCode !== 200) reject(new Error(`${url}: ${response.statusCode}`));
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > bytes) {
          request.destroy();
          resolve();
        }
      });
      response.on('error', () => undefined);
      response.on('end', () => reject(new Error(`${url} ended before the client left`)));
    });
    request.on('error', (error) => (error.message.includes('aborted') ? undefined : reject(error)));
  });
}

/** Waits until `done()` holds, for 10 s at most (the assertions after it say what did not). */
export async function settle(done: () => boolean): Promise<void> {
  for (let waited = 0; waited < 10_000 && !done(); waited += 10) await new Promise((r) => setTimeout(r, 10));
}

/**
 * A GET whose body is not read until asked: the client of a slow download. `read` takes the whole
 * body, or rejects with `cut after <n> bytes` when the server cuts it.
 */
export function slowGet(url: string): Promise<{ response: http.IncomingMessage; read(): Promise<Buffer> }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        response.pause();
        const read = (): Promise<Buffer> =>
          new Promise((done, failed) => {
            const parts: Buffer[] = [];
            let bytes = 0;
            response.on('data', (chunk: Buffer) => {
              parts.push(chunk);
              bytes += chunk.length;
            });
            response.on('end', () => done(Buffer.concat(parts)));
            response.on('error', failed);
            response.on('aborted', () => failed(new Error(`cut after ${bytes} bytes`)));
            response.resume();
          });
        resolve({ response, read });
      })
      .on('error', reject);
  });
}

/**
 * A GET read at about `bytesPerSecond` (a share every 250 ms) until `stop` (which tells the bytes
 * read). A client this slow sees a cut only once it has read what the kernel's buffers hold, so
 * the server's side tells whether it was cut.
 */
export function readSlowly(url: string, bytesPerSecond: number): Promise<{ stop(): number }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`${url}: ${response.statusCode}`));
      let bytes = 0;
      const timer = setInterval(() => {
        for (let share = bytesPerSecond / 4; share > 0;) {
          const chunk = response.read() as Buffer | null;
          if (!chunk) break;
          // Whatever read() handed over beyond the share goes back to the front of the buffer.
          const taken = Math.min(chunk.length, share);
          if (taken < chunk.length) response.unshift(chunk.subarray(taken));
          bytes += taken;
          share -= taken;
        }
      }, 250);
      response.on('error', () => undefined);
      resolve({
        stop: () => {
          clearInterval(timer);
          request.destroy();
          return bytes;
        },
      });
    });
    request.on('error', (error) => (error.message.includes('aborted') ? undefined : reject(error)));
  });
}

/**
 * A GET from `localAddress` (a caller of its own) read to its end at full speed: its status, the
 * bytes of its body, and the body's text when it is an error (short). A broken transfer or
 * connection is status 0.
 */
export function getFrom(
  url: string,
  localAddress: string,
): Promise<{ status: number; bytes: number; text: string }> {
  return new Promise((resolve) => {
    const broken = () => resolve({ status: 0, bytes: 0, text: '' });
    http
      .get(url, { agent: false, localAddress }, (response) => {
        const status = response.statusCode ?? 0;
        const parts: Buffer[] = [];
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (status !== 200) parts.push(chunk);
        });
        response.on('end', () => resolve({ status, bytes, text: Buffer.concat(parts).toString() }));
        response.on('error', broken);
      })
      .on('error', broken);
  });
}
