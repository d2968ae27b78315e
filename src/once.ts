// Giving back what was taken exactly once: a release handed out (an export slot, a waiting-line
// place, memory) may be called by both a `finally` and a close listener, and must count once.

/** `action`, run on the first call only; later calls do nothing. */
export function onlyOnce(action: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    action();
  };
}
