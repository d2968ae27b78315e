// Compile-then-execute: where filters on the fixture, asserting which records match.
import { expect } from 'chai';
import type { QueryParams } from '../../src/odsql/index.js';
import { openFixture, type Fixture } from './fixture.js';

/** The `n` of each fixture record: 1, 10, 50, null, 100, 25 (r1..r6), so a set of n names the records. */
type Ns = (number | null)[];

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

  const cases: [string, Ns][] = [
    ['n > 10', [25, 50, 100]],
    ['n >= 10', [10, 25, 50, 100]],
    ['n < 10', [1]],
    ['n <= 10', [1, 10]],
    ['n = 25', [25]],
    ['n : 25', [25]],
    ['n != 25', [1, 10, 50, 100]],
    ['n <> 25', [1, 10, 50, 100]],
    ['NOT n = 25', [1, 10, 50, 100, null]],
    ['not (n > 10)', [1, 10, null]],
    ['x > 2', [10, 25]],
    ['x IN [-5..0]', [50, 100]],
    ["name = 'beta'", [10]],
    ["name = 'Beta'", []],
    ['name = "O\'Brien \\\\ back"', [50]],
    ["name LIKE 'ALPHA'", [1, 25]],
    ["name like 'ray'", [100]],
    ["`year` = '2020'", [1, 10, 25]],
    ['ok', [1, 25]],
    ['ok is true', [1, 25]],
    ['ok IS FALSE', [10, 100]],
    ['ok = false', [10, 100]],
    ['not ok', [10, 50, 100, null]],
    ['name is null', [null]],
    ['name IS NOT NULL', [1, 10, 25, 50, 100]],
    ['tags is null', [50, null]],
    ['tags is not null', [1, 10, 25, 100]],
    ['n in [10..50]', [10, 25, 50]],
    ['n in ]10..50]', [25, 50]],
    ['n in [10..50[', [10, 25]],
    ['n IN ]10 TO 50[', [25]],
    ['n in (1, 100, 7)', [1, 100]],
    ["name in ('beta', 'Alpha')", [1, 10]],
    ["'red' in tags", [1, 25, 100]],
    ["tags = 'blue'", [1, 10]],
    ["'blue' = tags", [1, 10]],
    ["tags != 'blue'", [25, 50, 100]],
    ["tags like 'RE'", [1, 25, 100]],
    ["tags in ('green', 'blue')", [1, 10, 25]],
    ['n * 2 > 50', [50, 100]],
    ['n / 0 is null', [1, 10, 25, 50, 100, null]],
    ['(n + 1) * 2 = 4', [1]],
    ['n + 2 * 3 = 7', [1]],
    ['-n < -50', [100]],
    ['n - 1 = 0', [1]],
    ['n = 1 or n = 10 and x > 2', [1, 10]],
    ['(n = 1 or n = 10) and x > 2', [10]],
    ['n>=10 and(n<=25)', [10, 25]],
  ];
  for (const [where, expected] of cases) {
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
    const dateCases: [string, Ns, string?][] = [
      ["d > date'2020-01-15'", [10, 50]],
      ["d >= date'2020-01-15'", [1, 10, 50]],
      ["d = date'2020'", [1, 10, 25]],
      ["d < date'2020'", [100]],
      ["d <= date'2020-01'", [1, 25, 100]],
      ["d = '2020-01-15'", [1]],
      ["d in [date'2020-01-01'..date'2020-06-30']", [1, 10, 25]],
      ["d in [date'2020-01-01'..date'2020-06-30'[", [1, 25]],
      ["d in (date'2020-01-15', date'2019')", [1, 100]],
      ["t > date'2020-06-30'", [50]],
      ["t >= date'2020-07-01'", [50]],
      ["t >= date'2020-07-01'", [10, 50], 'Europe/Paris'],
      ["t = date'2020-01-01'", [25]],
      ["t < date'2020'", [100]],
      ["t < date'2020'", [25, 100], 'America/New_York'],
      ["t < date'2020'", [], 'Asia/Tokyo'],
    ];
    for (const [where, expected, timezone] of dateCases) {
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
