// A v2.0 client written in Python the way public ones are (test/api/v20/v20_client.py: requests,
// records read as records[i]['record']['fields'], pages followed by their `next` links), run by
// Debian's python3 against the sample portal; what it read must be what DuckDB reads of the
// same Parquet rows. `make test-deps` installs python3-requests.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { useSampleSuite } from '../../helpers/sample-portal.js';

const CLIENT = path.resolve('test/api/v20/v20_client.py');

describe('a v2.0 Python client (requests) against the sample portal', () => {
  const suite = useSampleSuite();

  it('reads the catalog, every page of a query, a record and aggregations', async () => {
    const { stdout } = await promisify(execFile)('/usr/bin/python3', [CLIENT, suite.server.base], {
      timeout: 60_000,
    });
    const read = JSON.parse(stdout) as Record<string, any>;
    expect(read.datasets).to.deep.equal(['airports', 'earthquakes', 'flights', 'movies', 'seattle-weather']);
    const airports = await suite.reference.rows(
      "SELECT iata, city FROM airports WHERE state = 'CA' AND latitude > 37 ORDER BY iata",
    );
    expect(airports.length).to.be.greaterThan(20);
    expect(read.total).to.equal(airports.length);
    expect(read.airports).to.deep.equal(airports);
    const [sfo] = await suite.reference.rows("SELECT name, latitude FROM airports WHERE iata = 'SFO'");
    expect(read.sfo).to.deep.equal({ id: 'SFO', name: sfo!.name, lat: sfo!.latitude });
    const ratings = await suite.reference.rows(
      `SELECT mpaa_rating, count(*)::INTEGER AS n FROM movies WHERE mpaa_rating IS NOT NULL
       GROUP BY mpaa_rating ORDER BY mpaa_rating`,
    );
    expect(read.ratings).to.deep.equal(ratings);
  });
});
