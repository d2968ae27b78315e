// The fuzz test (test/api/fuzz-check.ts) over datasets served from a two-shard ClickHouse cluster:
// the sample datasets ClickHouse can hold, attached under their own ids with the sample's field
// annotations, asked generated and hostile requests of every endpoint family. None may answer 5xx
// or show ClickHouse's text: what the dialect cannot spell is a 400 naming it. Then with a shard
// stopped: a query that needs it answers 503 with Retry-After naming the cluster, never a 500.
import { expect } from 'chai';
import { attachedPortal, type AttachedCopy } from '../helpers/clickhouse-attached.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CONCURRENCY, fuzz } from '../api/fuzz-check.js';
import { endpointRequests } from '../api/fuzz-requests.js';

const RUNS = 300;
/** Runs once a shard is stopped: each query fails in milliseconds, the catalog answers as before. */
const SHARD_DOWN_RUNS = 25;
/** The samples attached (movies holds dates before 1970, which ClickHouse 18.16 cannot). */
const SAMPLES = ['seattle-weather', 'airports', 'earthquakes'];

describe('fuzz: generated ODSQL over every endpoint family, datasets in ClickHouse', function () {
  this.timeout(1_200_000); // on a loaded machine: no speed is asserted
  let copy: AttachedCopy;
  let server: TestServer;

  before(async () => {
    copy = await attachedPortal();
    for (const sample of SAMPLES) {
      const table = sample.replace('-', '_');
      await copy.addCopy(sample, { parquetId: `${sample}-parquet`, attachedId: sample, table }, [], true);
    }
    server = await startTestServer(copy.portalDir);
  });
  after(async () => {
    await server?.close();
    await copy?.remove();
  });

  it(`${RUNS * CONCURRENCY} inputs: no 5xx, every request answered, clean error bodies, no SQL or engine text`, async () => {
    const statuses = await fuzz(server, endpointRequests(SAMPLES, false), RUNS);
    expect(statuses.length).to.equal(RUNS * CONCURRENCY);
    expect(statuses.filter((s) => s === 200).length).to.be.above(statuses.length / 10);
  });

  it(`${SHARD_DOWN_RUNS * CONCURRENCY} inputs with a shard stopped: 503 with Retry-After naming the cluster where a query needs it, never a 500`, async () => {
    await copy.cluster.stopShard(1);
    const statuses = await fuzz(server, endpointRequests(SAMPLES, false), SHARD_DOWN_RUNS, {
      clusterDown: true,
    });
    // Some generated requests need no shard (the catalog, 400s): a run drew only 20 503s of 200,
    // so at least 1 in 40 says the shard is stopped without failing on a thin draw.
    expect(statuses.filter((s) => s === 503).length).to.be.above(statuses.length / 40);
  });
});
