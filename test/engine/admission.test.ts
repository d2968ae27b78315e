// The waiting line's bound follows the measured service time: it grows when queries are quick and
// shrinks when they are slow, within one turn of the pool and its ceiling (a clock of our own).
import { expect } from 'chai';
import { Admission } from '../../src/engine/admission.js';

/** An admission policy on a clock the test moves, and a way to record queries of `ms` each. */
function policy(options: { connections: number; targetWaitMs: number; maxWaiting?: number }) {
  let now = 0;
  const admission = new Admission({ ...options, now: () => now });
  const serve = (ms: number, times: number): void => {
    for (let i = 0; i < times; i++) {
      const done = admission.start();
      now += ms;
      done();
    }
  };
  return { admission, serve };
}

describe('admission to the waiting line', () => {
  it('lets as many wait as the pool serves within the target wait', () => {
    const { admission, serve } = policy({ connections: 8, targetWaitMs: 1000 });
    serve(20, 200);
    expect(admission.meanServiceMs).to.be.closeTo(20, 0.01);
    // 1000 ms / 20 ms × 8 connections.
    expect(admission.bound).to.equal(400);
    expect(admission.admits(399)).to.equal(true);
    expect(admission.admits(400)).to.equal(false);
  });

  it('grows the bound when queries get quicker, up to its ceiling', () => {
    const { admission, serve } = policy({ connections: 8, targetWaitMs: 1000, maxWaiting: 1024 });
    serve(100, 200);
    const slow = admission.bound;
    serve(10, 5);
    expect(admission.bound).to.be.greaterThan(slow);
    serve(1, 200);
    expect(admission.bound).to.equal(1024);
  });

  it('shrinks the bound when queries get slower, down to one turn of the pool', () => {
    const { admission, serve } = policy({ connections: 8, targetWaitMs: 1000 });
    serve(10, 200);
    const quick = admission.bound;
    serve(200, 5);
    expect(admission.bound).to.be.lessThan(quick);
    serve(30_000, 200);
    expect(admission.bound).to.equal(8);
    expect(admission.admits(7)).to.equal(true);
    expect(admission.admits(8)).to.equal(false);
  });

  it('tells a refused caller to come back when the line has been served', () => {
    const { admission, serve } = policy({ connections: 8, targetWaitMs: 1000 });
    serve(500, 200);
    // 100 waiting × 500 ms / 8 connections = 6.25 s.
    expect(admission.retryAfterSeconds(100)).to.equal(7);
    serve(1, 200);
    expect(admission.retryAfterSeconds(10)).to.equal(1);
  });
});
