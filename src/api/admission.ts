// Steady goodput under overload: a request that would put work on the engine is refused at once
// (503 ServerBusy with Retry-After) while the engine's waiting line is full, before it parses
// anything, so that the requests admitted are served at full speed.
import type { Context, Next } from 'koa';
import type { Engine } from '../engine/engine.js';

/** Admits each request that reaches it to the engine's waiting line, or throws EngineSaturated. */
export function admitToEngine(engine: Engine) {
  return async (_ctx: Context, next: Next): Promise<void> => {
    engine.admit();
    await next();
  };
}
