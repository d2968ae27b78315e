// The forms of v1's q beyond the basic field queries (dates written as periods, ranges with open
// and exclusive bounds, field groups, wildcards, #now, #distance, #polygon), each counted against
// the same question asked of the Parquet files in plain DuckDB.
import { expect } from 'chai';
import { useSampleSuite } from '../helpers/sample-portal.js';
import { countCases, v1Hits, type QCase } from '../helpers/v1-q-cases.js';

/** Haversine meters from (37.619, -122.375) on the sphere ODSQL uses, computed independently. */
const FROM_SFO = `2 * 6371008.8 * asin(sqrt(pow(sin(radians(latitude - 37.619) / 2), 2) +
  cos(radians(37.619)) * cos(radians(latitude)) * pow(sin(radians(longitude + 122.375) / 2), 2)))`;
const IN_BOX = 'latitude BETWEEN 37 AND 38 AND longitude BETWEEN -123 AND -122';
const NOW = `(now() AT TIME ZONE 'UTC')`;

const CASES: QCase[] = [
  // A partial date is a period: <= reaches its end, > starts after it (the v1 documentation's
  // `timestamp<=2016/09` is "prior and equal to September 2016").
  ['date<=2013/02', 'seattle-weather', `date < DATE '2013-03-01'`],
  ['date < 2013/02', 'seattle-weather', `date < DATE '2013-02-01'`],
  ['date>2013/02', 'seattle-weather', `date >= DATE '2013-03-01'`],
  ['date >= 2013/02/11', 'seattle-weather', `date >= DATE '2013-02-11'`],
  ['date>2013/02/11', 'seattle-weather', `date > DATE '2013-02-11'`],
  ['date>=2014', 'seattle-weather', `date >= DATE '2014-01-01'`],
  ['date:2013/02', 'seattle-weather', `year(date) = 2013 AND month(date) = 2`],
  ['date:2013/02/11', 'seattle-weather', `date = DATE '2013-02-11'`],
  ['date>=2015-12-01T00:00:00Z', 'seattle-weather', `date >= DATE '2015-12-01'`],
  ['date: [2012 TO 2012/03]', 'seattle-weather', `date BETWEEN DATE '2012-01-01' AND DATE '2012-03-31'`],
  ['date:[2012/01/01..2012/01/31]', 'seattle-weather', `date BETWEEN '2012-01-01' AND '2012-01-31'`],
  ['date:]2012/01/01 TO 2012/01/31[', 'seattle-weather', `date > '2012-01-01' AND date < '2012-01-31'`],
  ['date:[* TO 2012/06]', 'seattle-weather', `date < DATE '2012-07-01'`],
  ['temp_max:]10 TO 20]', 'seattle-weather', 'temp_max > 10 AND temp_max <= 20'],
  ['temp_max:[10..20[', 'seattle-weather', 'temp_max >= 10 AND temp_max < 20'],
  ['temp_max:[* TO *]', 'seattle-weather', 'temp_max IS NOT NULL'],
  ['temp_max==10', 'seattle-weather', 'temp_max = 10'],
  ['temp_max:10', 'seattle-weather', 'temp_max = 10'],
  ['weather:(rain OR snow)', 'seattle-weather', `weather IN ('rain', 'snow')`],
  [
    'weather:(rain OR snow) AND temp_max>=20',
    'seattle-weather',
    `weather IN ('rain', 'snow') AND temp_max >= 20`,
  ],
  [
    'precipitation>10 OR (weather:sun AND NOT temp_max<30)',
    'seattle-weather',
    `precipitation > 10 OR (weather = 'sun' AND temp_max >= 30)`,
  ],
  ['weather:su*', 'seattle-weather', `weather = 'sun'`],
  ['weather:*', 'seattle-weather', 'weather IS NOT NULL'],
  ['*', 'seattle-weather', 'true'],
  ['  weather:rain    AND   temp_max >=  20 ', 'seattle-weather', `weather = 'rain' AND temp_max >= 20`],
  // #now(): plural units shift, singular ones set (explore-api.md's now() parameters).
  ['release_date>=#now(years=-50)', 'movies', `release_date >= ${NOW} - INTERVAL 50 YEAR`],
  [
    'release_date >= #now(years=-50, hours=-1)',
    'movies',
    `release_date >= ${NOW} - INTERVAL 50 YEAR - INTERVAL 1 HOUR`,
  ],
  [
    'release_date>#now(years=-30, month=1, day=1)',
    'movies',
    `release_date > make_date(year(${NOW}) - 30, 1, 1)`,
  ],
  ['release_date<#now(weeks=-1000)', 'movies', `release_date < ${NOW} - INTERVAL 7000 DAY`],
  [
    'release_date:[#now(years=-40) TO #now(years=-20)]',
    'movies',
    `release_date BETWEEN ${NOW} - INTERVAL 40 YEAR AND ${NOW} - INTERVAL 20 YEAR`,
  ],
  // Geo functions, latitude first, on the dataset's geo field when none is named.
  ['#distance(geo_point_2d, "37.619, -122.375", 20000)', 'airports', `${FROM_SFO} <= 20000`],
  ['#distance("37.619,-122.375", 20000)', 'airports', `${FROM_SFO} <= 20000`],
  ['#distance(37.619,-122.375,20000)', 'airports', `${FROM_SFO} <= 20000`],
  ['state:CA AND NOT #distance("37.619,-122.375",20000)', 'airports', `state = 'CA' AND ${FROM_SFO} > 20000`],
  ['#polygon(geo_point_2d, "(37,-123),(38,-123),(38,-122),(37,-122)")', 'airports', IN_BOX],
  ['#polygon("(37,-123), (38,-123), (38,-122), (37,-122), (37,-123)")', 'airports', IN_BOX],
  [
    '#search(name, "international") OR #startswith(city, "San")',
    'airports',
    `lower(name) LIKE '%international%' OR starts_with(city, 'San')`,
  ],
  ['#EXACT(state, CA)', 'airports', `state = 'CA'`],
];

describe('v1 q forms (sample portal)', () => {
  const suite = useSampleSuite();

  const nhits = (dataset: string, q: string) => v1Hits(suite, dataset, q);

  countCases(suite, CASES);

  it('#now() takes weeks and weekdays as ODSQL now() does (days=7*weeks, MO(2): mondays=2)', async () => {
    const pairs: [v1: string, odsql: string][] = [
      ['release_date>=#now(weeks=-1040, weekday=MO(2))', 'release_date >= now(days=-7280, mondays=2)'],
      ['release_date>=#now(years=-20, weekday=1)', 'release_date >= now(years=-20, weekday=1)'],
      ['release_date<#now(weekday=su(-1), years=-30)', 'release_date < now(sundays=-1, years=-30)'],
      ['release_date<#now(weeks=-2, days=-3, year=1990)', 'release_date < now(days=-17, year=1990)'],
    ];
    for (const [q, where] of pairs) {
      const v1 = await nhits('movies', q);
      const v21 = await suite.server.json(
        `/api/explore/v2.1/catalog/datasets/movies/records?limit=0&where=${encodeURIComponent(where)}`,
      );
      expect(v1.status, JSON.stringify(v1.body)).to.equal(200);
      expect(v1.body.nhits, q).to.equal(v21.body.total_count).and.be.greaterThan(0);
    }
  });
});
