// A burst far over capacity: every answer is a 200, a 429 or a 503 refused at once with
// Retry-After and the error object, never a 500 or a dropped connection; the metrics' waiting line
// is back to empty after it.
import { expect } from 'chai';
import { SAMPLE_PORTAL } from '../helpers/sample-portal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Distinct heavy queries (no two share a cached answer): a group_by of flights on two keys. */
const heavy = (i: number): string =>
  `/api/explore/v2.1/catalog/datasets/flights/records?${new URLSearchParams({
    select: 'origin, destination, avg(delay) as d, count(*) as n',
    where: `delay > ${i - 1000}`,
    group_by: 'origin, destination',
    limit: '5',
  }).toString()}`;

describe('overload', () => {
  let server: TestServer;
  before(async () => {
    // A target wait of 1 ms keeps the line at one turn of the pool: a burst overflows it.
    server = await startTestServer(SAMPLE_PORTAL, { targetWaitMs: 1 });
  });
  after(() => server.close());

  it('answers a burst far over capacity with 200, 429 or 503 only, each 503 at once with Retry-After', async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const response = await server.get(heavy(i));
        return {
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          body: await response.json(),
        };
      }),
    );
    const statuses = new Set(answers.map((a) => a.status));
    expect(
      [...statuses].every((s) => s === 200 || s === 429 || s === 503),
      [...statuses].join(),
    ).to.equal(true);
    const busy = answers.filter((a) => a.status === 503);
    expect(busy.length, 'refused').to.be.greaterThan(0);
    expect(answers.filter((a) => a.status === 200).length, 'served').to.be.greaterThan(0);
    for (const answer of busy) {
      expect(Number(answer.retryAfter)).to.be.at.least(1);
      expect(answer.body).to.deep.equal({
        error_code: 'ServerBusy',
        message: 'The server is busy: retry in a moment.',
      });
    }
    const metrics = await (await server.get('/metrics')).text();
    expect(metrics).to.match(/^duckportal_queue_length\{engine="duckdb",server="local"\} 0$/m);
    expect(metrics).to.match(/^duckportal_queries_in_flight\{engine="duckdb",server="local"\} 0$/m);
  });
});
