// The bench's arithmetic: when a ratio has been timed enough, how precisely it is known, and
// which ratios of two reports agree.
import { expect } from 'chai';
import { compareRatios, type ReportJson } from '../../bench/compare.js';
import { measuredRatio, medianLogError, RATIO_ERROR, ratioWantsAnotherTurn } from '../../bench/harness.js';

/** `count` ratios spread evenly (in logs) by ±`spread` around `center`. */
const spreadRatios = (count: number, center: number, spread: number): number[] =>
  Array.from(
    { length: count },
    (_, i) => center * Math.exp(spread * (count === 1 ? 0 : (2 * i) / (count - 1) - 1)),
  );

describe('bench ratios', () => {
  describe('how precisely a ratio is known', () => {
    it('is exact for turns that agree', () => {
      expect(medianLogError([2, 2, 2, 2, 2])).to.equal(0);
    });

    it('is 1.2533 × 1.4826 × the median absolute deviation of the log ratios, over √n', () => {
      const error = medianLogError([Math.exp(-0.1), 1, Math.exp(0.1)]);
      expect(error).to.be.closeTo((1.2533 * 1.4826 * 0.1) / Math.sqrt(3), 1e-12);
    });

    it('passes over a few turns a busy moment slowed', () => {
      const steady = spreadRatios(20, 10, 0.05);
      const slowed = [...steady.slice(0, 17), 30, 40, 50];
      expect(measuredRatio(slowed).ratio).to.be.closeTo(measuredRatio(steady).ratio, 0.6);
      expect(medianLogError(slowed)).to.be.below(2 * medianLogError(steady));
    });

    it('is the median of the ratios, with the turns counted', () => {
      expect(measuredRatio([3, 1, 2])).to.deep.include({ ratio: 2, turns: 3 });
    });
  });

  describe('when a ratio takes another turn', () => {
    it('always, until the least number of turns, even with its time spent', () => {
      expect(ratioWantsAnotherTurn([5, 5, 5, 5], 5, false)).to.equal(true);
    });

    it('until 12 turns, even when the first ones agree', () => {
      expect(ratioWantsAnotherTurn(Array<number>(11).fill(5), 5, true)).to.equal(true);
      expect(ratioWantsAnotherTurn(Array<number>(12).fill(5), 5, true)).to.equal(false);
    });

    it('while its median is known less well than RATIO_ERROR', () => {
      const noisy = spreadRatios(12, 10, 0.3);
      expect(medianLogError(noisy)).to.be.above(RATIO_ERROR);
      expect(ratioWantsAnotherTurn(noisy, 5, true)).to.equal(true);
      const steady = spreadRatios(12, 10, 0.05);
      expect(medianLogError(steady)).to.be.below(RATIO_ERROR);
      expect(ratioWantsAnotherTurn(steady, 5, true)).to.equal(false);
    });

    it("not once its table's time is spent, nor past 60 turns, however noisy", () => {
      expect(ratioWantsAnotherTurn(spreadRatios(12, 10, 0.3), 5, false)).to.equal(false);
      expect(ratioWantsAnotherTurn(spreadRatios(59, 10, 0.3), 5, true)).to.equal(true);
      expect(ratioWantsAnotherTurn(spreadRatios(60, 10, 0.3), 5, true)).to.equal(false);
    });
  });

  describe('two reports compared', () => {
    const report = (date: string, ratio: number, legacy = false): ReportJson => ({
      date,
      aggregations: [{ name: 'q', httpMs: 20, duckdbMs: 10, ...(legacy ? {} : { ratio }) }],
      peers: { SQLite: [{ peerMs: 100, httpMs: 20, ratio: 5 * ratio }, null] },
      facets: [{ name: 'f', httpMs: 30, groupByMs: 10, ...(legacy ? {} : { ratio }) }],
      scaling: [{ name: 'q', smallMs: 10, largeMs: 100, ...(legacy ? {} : { ratio: 10 * ratio }) }],
      exports: [{ server: 'default', format: 'csv', dataset: 'flights', ratio }],
    });

    it('agree within 15%, as the larger ratio over the smaller', () => {
      const rows = compareRatios(report('a', 1), report('b', 1.149)).rows;
      expect(rows.map((r) => r.agrees)).to.deep.equal([true, true, true, true, true]);
      const apart = compareRatios(report('a', 1.151), report('b', 1)).rows;
      expect(apart.map((r) => r.agrees)).to.deep.equal([false, false, false, false, false]);
    });

    it("take an older report's ratios from its medians where it has no ratio", () => {
      const rows = compareRatios(report('old', 1, true), report('new', 2)).rows;
      expect(rows.map((r) => [r.name, r.previous])).to.deep.equal([
        ['q: HTTP / DuckDB', 20 / 10],
        ['q: SQLite / HTTP', 5],
        ['facets, f: HTTP / DuckDB', 30 / 10],
        ['q: 30M / 3M', 100 / 10],
        ['export csv of flights (default): HTTP / COPY', 1],
      ]);
    });
  });
});
