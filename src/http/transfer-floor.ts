// The minimum transfer rate of an export: a client that holds the data back (its buffers full)
// while taking less than the floor over a window is cut off, which frees its query, connection,
// export slot and pipe (the response's close does the rest). A slow query is not the client's
// fault: only a window in which the client was behind at every look counts against it.
// Progress is seen at the socket, after the kernel's buffers: a reading client frees a third of
// the send buffer (measured on loopback: docs/access-control.md) before the socket takes more, so the
// floor times the window must stay above that or an honest slow reader could see a window pass
// without visible progress (the default, 16 KiB/s over 120 s, allows 1.9 MB).
// The window slides: the kernel's buffers take megabytes at once when the transfer starts, and a
// window fixed at the start counted them as the client's reading, so a client at 4 KiB/s against
// the default floor was cut only at the end of the second window (~240 s).
import type { ServerResponse } from 'node:http';

/** The slowest average rate a client may read an export at, over windows of `windowMs`. */
export interface TransferFloor {
  readonly bytesPerSecond: number;
  readonly windowMs: number;
}

/** Looks per window: the client is cut at most a twentieth of a window late. */
const LOOKS_PER_WINDOW = 20;

/**
 * Watches `response` until it closes; once the client has been behind (a write waiting for
 * drain) at every look over the last `windowMs` while its socket took fewer than
 * `bytesPerSecond * windowMs / 1000` bytes, destroys the connection and calls `onCut`.
 */
export function enforceTransferFloor(
  response: ServerResponse,
  floor: TransferFloor,
  onCut: (sentInWindow: number) => void = () => undefined,
): void {
  const socket = response.socket;
  if (!socket) return;
  const minimum = (floor.bytesPerSecond * floor.windowMs) / 1000;
  // Bytes the socket took between looks, over the last window; null for a look the client was
  // not behind at.
  const looks: (number | null)[] = [];
  let mark = socket.bytesWritten;
  const timer = setInterval(() => {
    looks.push(response.writableNeedDrain ? socket.bytesWritten - mark : null);
    mark = socket.bytesWritten;
    if (looks.length > LOOKS_PER_WINDOW) looks.shift();
    if (looks.length < LOOKS_PER_WINDOW || looks.includes(null)) return;
    const sent = looks.reduce<number>((sum, bytes) => sum + (bytes ?? 0), 0);
    if (sent < minimum) {
      clearInterval(timer);
      onCut(sent);
      response.destroy();
    }
  }, floor.windowMs / LOOKS_PER_WINDOW);
  timer.unref();
  response.once('close', () => clearInterval(timer));
}
