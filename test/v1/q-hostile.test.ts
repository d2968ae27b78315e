// v1's q given what it cannot read: each is a clean 400 in v1's error shape naming q and the
// problem, nothing is run from the user's text, and a value is only ever a value.
import { expect } from 'chai';
import { useSampleSuite } from '../helpers/sample-portal.js';

/** q (on airports) and what the error must say. */
const REFUSED: [q: string, problem: RegExp][] = [
  ['state:', /Expected a value/],
  ['(state:CA', /Expected \) closing \(/],
  ['state:CA)', /Unexpected \)/],
  ['"unclosed', /Quoted text not closed/],
  ['latitude>=north', /north is not a number for field latitude/],
  ['nofield>=3', /Unknown field: nofield/],
  ['#nope(state)', /Unknown function #nope/],
  ['#exact(city)', /#exact expects a field and a value/],
  ['#exact(nofield, "x")', /#exact: unknown field nofield/],
  ['#null()', /#null: unknown field|#null expects a field/],
  ['#now()', /#now\(\) is a date value/],
  ['#attr(city, user_city)', /#attr is not supported/],
  ['latitude>=#foo()', /#foo is not a value/],
  ['latitude:[1 TO', /Expected a range bound/],
  ['latitude:[1 2]', /Expected a range as \[low TO high\]/],
  ['latitude:[1 TO 2', /Range not closed/],
  ['#distance(geo_point_2d, "north, west", 5)', /#distance expects/],
  ['#distance("37.6,-122.4")', /#distance expects/],
  ['#polygon(geo_point_2d, "(1,2)")', /#polygon expects/],
  ['#polygon(geo_point_2d, "(1,2),(3,4),(5,x)")', /#polygon expects/],
  ['#startswith(latitude, "3")', /startswith/],
  ['#distance(state, "37.6,-122.4", 10)', /within_distance|geo/i],
  ['(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((a', /deeper than 64/],
  ['NOT '.repeat(70) + 'a', /deeper than 64/],
];

/** q (on movies) with #now parameters out of explore-api.md's list or range. */
const BAD_NOW: [q: string, problem: RegExp][] = [
  ['release_date>=#now(fortnights=-1)', /Unknown now\(\) parameter: fortnights/],
  ['release_date>=#now(month=13)', /month must be an integer from 1 to 12/],
  ['release_date>=#now(days=)', /#now\(\) expects name=integer parameters/],
  ['release_date>=#now(days=1e3)', /Expected , or \) in #now\(\)/],
  ['release_date>=#now(weekday=XX(1))', /weekday=MO\(1\)/],
  ['release_date>=#now(years=-100000)', /years must be an integer/],
  ['release_date>=#now(days=-1', /Expected , or \) in #now\(\)|name=integer/],
];

describe('v1 q refused (sample portal)', () => {
  const suite = useSampleSuite();

  const search = (dataset: string, q: string) =>
    suite.server.json(
      `/api/records/1.0/search/?${new URLSearchParams({ dataset, q, rows: '0' }).toString()}`,
    );

  for (const [dataset, cases] of [
    ['airports', REFUSED],
    ['movies', BAD_NOW],
  ] as const) {
    for (const [q, problem] of cases) {
      it(`${q.slice(0, 60)}  ->  400 ${problem.source}`, async () => {
        const { status, body } = await search(dataset, q);
        expect(status, JSON.stringify(body)).to.equal(400);
        expect(Object.keys(body)).to.deep.equal(['errorcode', 'error']);
        expect(body.errorcode).to.equal(400);
        expect(body.error).to.match(problem);
        expect(body.error).to.match(/Clause\(s\) containing the error\(s\): q\.$/);
      });
    }
  }

  it('reads quotes and SQL in values as text only', async () => {
    for (const q of [
      `state:"CA' OR 1=1 --"`,
      `#exact(city, "x\\") OR true OR (\\"")`,
      `#startswith(name, "'; DROP TABLE airports; --")`,
      `name:"\\"; select 1"`,
    ]) {
      const { status, body } = await search('airports', q);
      expect(status, q).to.equal(200);
      expect(body.nhits, q).to.equal(0);
    }
    const { body } = await search('airports', 'state:CA');
    expect(body.nhits).to.be.greaterThan(0);
  });

  it('a name before : that is no field is a word of the full-text search, as a URL is', async () => {
    const { status, body } = await search('airports', 'http://example.org');
    expect(status).to.equal(200);
    expect(body.nhits).to.equal(0);
  });
});
