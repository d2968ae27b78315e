// The minimum transfer rate of an export: a client that holds the data back (its buffers full)
// while taking less than the floor over a window is cut off, which frees its query, connection,
// export slot and pipe (the response's close does the rest). A slow query is not the client's
// fault: while nothing waits on the client, a window never counts against it.
// Progress is seen at the socket, after the kernel's buffers: a reading client frees a third of
// the send buffer (about 1.5 MB on loopback, measured) before the socket takes more, so the
// floor times the window must stay above that or an honest slow reader could see a window pass
// without visible progress (the default, 16 KiB/s over 120 s, allows 1.9 MB).
import type { ServerResponse } from 'node:http';

/** The slowest average rate a client may read an export at, over windows of `windowMs`. */
export interface TransferFloor {
  readonly bytesPerSecond: number;
  readonly windowMs: number;
}

/**
 * Watches `response` until it closes; at the end of each window in which fewer than
 * `bytesPerSecond * windowMs / 1000` bytes were handed to its socket while the client was
 * still behind (a write waiting for drain), destroys the connection and calls `onCut`.
 */
export function enforceTransferFloor(
  response: ServerResponse,
  floor: TransferFloor,
  onCut: (sentInWindow: number) => void = () => undefined,
): void {
  const socket = response.socket;
  if (!socket) return;
  const minimum = (floor.bytesPerSecond * floor.windowMs) / 1000;
  let mark = socket.bytesWritten;
  const timer = setInterval(() => {
    const sent = socket.bytesWritten - mark;
    mark = socket.bytesWritten;
    if (sent < minimum && response.writableNeedDrain) {
      clearInterval(timer);
      onCut(sent);
      response.destroy();
    }
  }, floor.windowMs);
  timer.unref();
  response.once('close', () => clearInterval(timer));
}
