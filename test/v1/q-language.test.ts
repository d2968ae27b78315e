// The v1 query language on the sample portal: each form of q counted against plain SQL.
import { expect } from 'chai';
import { useSampleSuite } from '../helpers/sample-portal.js';
import { countCases, v1Hits, type QCase } from '../helpers/v1-q-cases.js';

const CASES: QCase[] = [
  ['state:CA', 'airports', `state = 'CA'`],
  ['state:CA OR state:NV', 'airports', `state IN ('CA', 'NV')`],
  ['state:CA AND NOT city:"San Francisco"', 'airports', `state = 'CA' AND city <> 'San Francisco'`],
  ['state:CA NOT city:"San Francisco"', 'airports', `state = 'CA' AND city <> 'San Francisco'`],
  ['(state:CA OR state:NV) latitude<36', 'airports', `state IN ('CA', 'NV') AND latitude < 36`],
  ['latitude>=60', 'airports', 'latitude >= 60'],
  ['latitude>60', 'airports', 'latitude > 60'],
  ['latitude<=20', 'airports', 'latitude <= 20'],
  ['latitude:[60 TO 65]', 'airports', 'latitude BETWEEN 60 AND 65'],
  ['latitude:[60 TO *]', 'airports', 'latitude >= 60'],
  ['#exact(city, "San Francisco")', 'airports', `city = 'San Francisco'`],
  ['#startswith(name, "San ")', 'airports', `starts_with(name, 'San ')`],
  ['#search(name, "international")', 'airports', `lower(name) LIKE '%international%'`],
  ['city="San Francisco"', 'airports', `city = 'San Francisco'`],
  ['#null(mpaa_rating)', 'movies', 'mpaa_rating IS NULL'],
  ['NOT #null(mpaa_rating)', 'movies', 'mpaa_rating IS NOT NULL'],
  ['major_genre:Comedy', 'movies', `list_contains(major_genre, 'Comedy')`],
  ['date:2013', 'seattle-weather', `year(date) = 2013`],
  ['date:2013-02', 'seattle-weather', `date >= DATE '2013-02-01' AND date < DATE '2013-03-01'`],
  ['date>=2015-12-01', 'seattle-weather', `date >= DATE '2015-12-01'`],
  [
    'date:[2012-01-01 TO 2012-01-31]',
    'seattle-weather',
    `date BETWEEN DATE '2012-01-01' AND DATE '2012-01-31'`,
  ],
  ['weather:rain precipitation>10', 'seattle-weather', `weather = 'rain' AND precipitation > 10`],
];

describe('v1 q language (sample portal)', () => {
  const suite = useSampleSuite();

  const nhits = (dataset: string, q: string) => v1Hits(suite, dataset, q);

  countCases(suite, CASES);

  it('a bare word or quoted phrase is a full-text search', async () => {
    const word = await nhits('airports', 'francisco');
    const phrase = await nhits('airports', '"san francisco"');
    expect(word.body.nhits).to.be.greaterThan(0);
    expect(phrase.body.nhits).to.equal(word.body.nhits);
    const [row] = await suite.reference.rows(
      `SELECT count(*)::INTEGER AS n FROM airports WHERE lower(name || ' ' || city) LIKE '%francisco%'`,
    );
    expect(word.body.nhits).to.equal(row!.n);
  });

  it('refuses what it cannot read, naming q', async () => {
    for (const q of ['state:', '#nope(state)', '(state:CA', 'latitude>=north', '#exact(nofield, "x")']) {
      const { status, body } = await nhits('airports', q);
      expect(status, q).to.equal(400);
      expect(body.error, q).to.match(/Clause\(s\) containing the error\(s\): q\.$/);
    }
  });

  it('escapes what the user writes: quotes in values are only text', async () => {
    const { status, body } = await nhits('airports', `#exact(city, "O\\"Brien') OR 1=1 --")`);
    expect(status).to.equal(200);
    expect(body.nhits).to.equal(0);
  });
});
