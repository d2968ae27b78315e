// Long JavaScript work cut into slices, so that the event loop serves the other requests (and
// /livez) in between: work that may run long calls `loopTurn()` often, and goes on after a turn of
// the loop once the process has run SLICE_MS since the loop last turned. The clock is the
// process's, not each piece of work's: seven statements' results converted side by side share
// one slice instead of taking seven in a row.

/** Most milliseconds of JavaScript work between two turns of the event loop. */
export const SLICE_MS = 10;

/** When the work running now began: when the loop last gave it back. */
let since = performance.now();
/** The turn every caller past the slice waits for (one setImmediate for all of them). */
let nextTurn: Promise<void> | undefined;

/** Nothing, or a turn of the event loop to wait for when the process has worked SLICE_MS. */
export function loopTurn(): Promise<void> | undefined {
  if (performance.now() - since < SLICE_MS) return undefined;
  nextTurn ??= new Promise<void>((resolve) =>
    setImmediate(() => {
      since = performance.now();
      nextTurn = undefined;
      resolve();
    }),
  );
  return nextTurn;
}
