// The places both engines share (src/engine/waiting-line.ts): served in their order of arrival,
// a caller gone while waiting holds no place, a line past its ceiling refused, exports capped.
import { expect } from 'chai';
import { EngineSaturated, QueryInterrupted } from '../../src/engine/engine.js';
import { ExportPlaces, WaitingLine } from '../../src/engine/waiting-line.js';

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('the waiting line of an engine', () => {
  it('hands its places to callers in their order of arrival', async () => {
    const line = new WaitingLine(['a'], { maxWaiting: 8 });
    const first = gate();
    const order: string[] = [];
    const running = line.use(async (place) => {
      order.push(`first on ${place}`);
      await first.opened;
    });
    const second = line.use((place) => Promise.resolve(void order.push(`second on ${place}`)));
    const third = line.use((place) => Promise.resolve(void order.push(`third on ${place}`)));
    expect(line.length).to.equal(2);
    expect(line.busyPlaces).to.equal(1);
    first.open();
    await Promise.all([running, second, third]);
    expect(order).to.deep.equal(['first on a', 'second on a', 'third on a']);
    expect([line.idlePlaces, line.busyPlaces, line.length]).to.deep.equal([1, 0, 0]);
  });

  it('frees the place of a caller gone while it waited, and refuses past its ceiling', async () => {
    const line = new WaitingLine([1], { maxWaiting: 1 });
    const first = gate();
    const running = line.use(() => first.opened);
    const gone = new AbortController();
    const waiter = line.use(() => Promise.resolve('ran'), gone.signal);
    await line
      .use(() => Promise.resolve())
      .then(
        () => expect.fail('a second waiter was let in past the ceiling of 1'),
        (error: unknown) => expect(error).to.be.instanceOf(EngineSaturated),
      );
    gone.abort();
    first.open();
    await running;
    await waiter.then(
      () => expect.fail('the work of a caller gone ran'),
      (error: unknown) => expect(error).to.be.instanceOf(QueryInterrupted),
    );
    expect([line.idlePlaces, line.busyPlaces]).to.deep.equal([1, 0]);
  });

  it('caps the exports running at once and gives each place back once', async () => {
    const exports = new ExportPlaces(1);
    const signal = new AbortController().signal;
    const giveBack = exports.take(signal);
    expect(() => exports.take(signal)).to.throw(EngineSaturated);
    giveBack();
    giveBack();
    expect(exports.count).to.equal(0);
    expect(await exports.run(() => Promise.resolve(exports.count), signal)).to.equal(1);
    expect(exports.count).to.equal(0);
  });
});
