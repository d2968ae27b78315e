// The event loop's longest delay while some work runs, from perf_hooks' monitorEventLoopDelay: a
// libuv timer every RESOLUTION_MS whose lateness is recorded (a loop blocked 300 ms records ~300).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

const RESOLUTION_MS = 5;

/**
 * Starts watching the loop; the function returned stops and gives the longest delay seen, in ms.
 * A block is recorded by the tick after it: stopping waits `settleMs` first (two ticks unless told).
 */
export function watchLoop(settleMs = 2 * RESOLUTION_MS): () => Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  return async () => {
    if (settleMs > 0) await sleep(settleMs);
    histogram.disable();
    return Math.round(histogram.max / 1e6);
  };
}
