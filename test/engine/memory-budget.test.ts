// The process's budget of memory outside the engine's limit (src/engine/memory-budget.ts): what
// fits is granted at once, the rest waits in order of arrival (a smaller one may pass), a wait in
// vain is a QueryOutOfMemory, and a caller gone while waiting holds nothing.
import { expect } from 'chai';
import { QueryInterrupted, QueryOutOfMemory } from '../../src/engine/engine.js';
import { MemoryBudget } from '../../src/engine/memory-budget.js';

describe('the memory budget of the process', () => {
  it('grants what fits at once, and gives each reservation back once', async () => {
    const budget = new MemoryBudget(100, 1_000);
    const first = await budget.reserve(60);
    const second = await budget.reserve(40);
    expect(budget.heldBytes).to.equal(100);
    first();
    first();
    expect(budget.heldBytes).to.equal(40);
    second();
    expect(budget.heldBytes).to.equal(0);
    // No bytes, nothing held; more than the budget is the whole budget (a query let through runs alone).
    (await budget.reserve(0))();
    const whole = await budget.reserve(500);
    expect(budget.heldBytes).to.equal(100);
    whole();
  });

  it('grants waiting reservations in order of arrival as each fits, a smaller one passing a larger', async () => {
    const budget = new MemoryBudget(100, 10_000);
    const holder = await budget.reserve(100);
    const order: string[] = [];
    const granted = (name: string, bytes: number) =>
      budget.reserve(bytes).then((release) => (order.push(name), release));
    const a = granted('a 60', 60);
    const b = granted('b 50', 50);
    const c = granted('c 40', 40);
    expect(budget.waitingCount).to.equal(3);
    holder();
    // a fits first; b does not beside it, c does.
    const releaseA = await a;
    const releaseC = await c;
    expect(order).to.deep.equal(['a 60', 'c 40']);
    releaseA();
    const releaseB = await b;
    expect(order).to.deep.equal(['a 60', 'c 40', 'b 50']);
    expect(budget.heldBytes).to.equal(90);
    releaseB();
    releaseC();
    expect([budget.heldBytes, budget.waitingCount]).to.deep.equal([0, 0]);
  });

  it('refuses a reservation that found no room within its wait, and one whose caller left', async () => {
    const budget = new MemoryBudget(100, 50);
    const holder = await budget.reserve(100);
    await budget.reserve(1).then(
      () => expect.fail('granted'),
      (error: unknown) => expect(error).to.be.instanceOf(QueryOutOfMemory),
    );
    const gone = new AbortController();
    const waiting = budget.reserve(1, gone.signal);
    gone.abort();
    await waiting.then(
      () => expect.fail('granted'),
      (error: unknown) => expect(error).to.be.instanceOf(QueryInterrupted),
    );
    expect([budget.heldBytes, budget.waitingCount]).to.deep.equal([100, 0]);
    holder();
    expect(budget.heldBytes).to.equal(0);
  });
});
