// Compile-then-execute: where filters on the fixture, asserting which records match.
import { expect } from 'chai';
import type { QueryParams } from '../../src/odsql/index.js';
import { openFixture, type Fixture } from './fixture.js';
import { DATE_CASES, WHERE_CASES, type Ns } from './where-cases.js';

const sorted = (ns: Ns): Ns => [...ns].sort((a, b) => (a ?? Infinity) - (b ?? Infinity));

describe('ODSQL where, executed', () => {
  let fixture: Fixture;
  before(async () => {
    fixture = await openFixture();
  });
  after(async () => fixture.close());

  /** The sorted n of the records matching `where` (in `timezone`), checked against the count query too. */
  async function matching(where: string, extra: QueryParams = {}): Promise<Ns> {
    const params = { select: 'n', where: [where], ...extra };
    const rows = await fixture.rows(params);
    expect(await fixture.count(params)).to.equal(rows.length);
    return sorted(rows.map((r) => r.n as number | null));
  }

  for (const [where, expected] of WHERE_CASES) {
    it(`where=${where}`, async () => {
      expect(await matching(where)).to.deep.equal(expected);
    });
  }

  it('ANDs several where parameters', async () => {
    const rows = await fixture.rows({ select: 'n', where: ['n > 1', 'n < 50'], orderBy: 'n' });
    expect(rows.map((r) => r.n)).to.deep.equal([10, 25]);
  });

  it('ANDs extraWhere ASTs, built by code or parsed from another syntax', async () => {
    const { node, parseWhere } = await import('../../src/odsql/index.js');
    const extraWhere = [node.comparison('>', node.field('n'), node.number(5)), parseWhere('n < 60')];
    const rows = await fixture.rows({ select: 'n', extraWhere, orderBy: 'n' });
    expect(rows.map((r) => r.n)).to.deep.equal([10, 25, 50]);
  });

  it('selects one record by its id', async () => {
    expect(await fixture.rows({ select: 'n', recordId: 'r5' })).to.deep.equal([{ n: 100 }]);
    expect(await fixture.rows({ select: 'n', recordId: "r5' OR 1=1 --" })).to.deep.equal([]);
  });

  describe('date literals are day-granular (supplement 5)', () => {
    for (const [where, expected, timezone] of DATE_CASES) {
      it(`where=${where}${timezone ? ` in ${timezone}` : ''}`, async () => {
        expect(await matching(where, timezone ? { timezone } : {})).to.deep.equal(expected);
      });
    }
  });

  it('a bare quoted string is a full-text search over all fields', async () => {
    expect(await matching("'gamma'")).to.deep.equal([100]);
    expect(await matching("'alpha' and n > 5")).to.deep.equal([25]);
    expect(await matching("not 'alpha'")).to.deep.equal([10, 50, 100, null]);
  });
});
