// Datasets attached to a two-shard ClickHouse cluster when ClickHouse fails them (issue 38): a query
// killed by the server's operator (KILL QUERY) or stopped at one of the server's limits
// (max_execution_time), the connection to ClickHouse reset, a shard stopped while the server
// duckportal asks is up. Before an answer's first byte each is a 503 with Retry-After and the
// error object in the portal's words (never ClickHouse's text); an export already streaming is cut:
// the client sees an aborted transfer, never a body that looks complete. A replica lagging needs
// replicated tables (ZooKeeper), which this cluster has not: its code is in the same table
// (src/engine/clickhouse/failures.ts) as a shard down's.
import { expect } from 'chai';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { portalWithAttachedCopy, readOnlyUrl, type AttachedCopy } from '../helpers/clickhouse-attached.js';
import { PORTAL_PASSWORD, PORTAL_USER, type ClickHouseCluster } from '../helpers/clickhouse-cluster.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const v2 = '/api/explore/v2.1/catalog/datasets';

/**
 * Attaches the Distributed table `id` over a view of numbers on each shard, `rows` of them read as
 * they are made: a MergeTree table while `attach` counts its rows, a view after. Their names are
 * hashes, which Parquet cannot compress much: DuckDB's encoder reads tens of MB ahead of its
 * output, and an export must still be streaming from ClickHouse when its first byte is read.
 */
async function attachNumbers(copy: AttachedCopy, id: string, rows: number): Promise<void> {
  const { cluster } = copy;
  const local = `${id}_local`;
  await cluster.admin(
    `CREATE TABLE ${local} (_recordid String, _ordinal UInt64, name String, n Int64) ENGINE = MergeTree() ORDER BY _ordinal`,
  );
  await cluster.admin(`CREATE TABLE ${id} AS ${local} ENGINE = Distributed(portal, default, ${local})`);
  await copy.attach(['--id', id, '--table', id, '--quiet'], readOnlyUrl(cluster));
  await cluster.admin(`DROP TABLE ${local}`);
  await cluster.admin(
    `CREATE VIEW ${local} AS SELECT toString(number) AS _recordid, number AS _ordinal, toString(cityHash64(number)) AS name, toInt64(number) AS n FROM system.numbers LIMIT ${rows}`,
  );
}

/**
 * A TCP proxy to a server that, once told, resets each new connection `after` bytes of an answer's
 * body; shorter answers before it pass whole.
 */
interface ResettingProxy {
  readonly port: number;
  /** Resets connections `after` body bytes from now on (null: passes everything). */
  cut(after: number | null): void;
  close(): void;
}

async function resettingProxy(port: number): Promise<ResettingProxy> {
  let after: number | null = null;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('close', () => sockets.delete(socket));
    }
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
    client.pipe(upstream);
    const limit = after;
    if (limit === null) return void upstream.pipe(client);
    let seen = Buffer.alloc(0);
    upstream.on('data', (data: Buffer) => {
      seen = Buffer.concat([seen, data]);
      for (;;) {
        const head = seen.indexOf('\r\n\r\n');
        if (head < 0) return;
        if (seen.length >= head + 4 + limit) {
          client.write(seen.subarray(0, head + 4 + limit), () => client.resetAndDestroy());
          return void upstream.pause();
        }
        // A whole answer shorter than the limit (a chunked body's last chunk seen) passes, and the
        // next answer on the connection is counted afresh: an export asks its columns first.
        const end = seen.indexOf('\r\n0\r\n\r\n', head + 2);
        if (end < 0) return;
        client.write(seen.subarray(0, end + 7));
        seen = seen.subarray(end + 7);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut(bytes) {
      after = bytes;
      // Connections kept alive from before would not be cut.
      for (const socket of sockets) socket.destroy();
    },
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/** How an answer's body ended: read whole, or cut (and the bytes until then, as text). */
async function readBody(response: Response): Promise<{ complete: boolean; text: string }> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of response.body!) chunks.push(Buffer.from(chunk));
    return { complete: true, text: Buffer.concat(chunks).toString('latin1') };
  } catch {
    return { complete: false, text: Buffer.concat(chunks).toString('latin1') };
  }
}

describe('ClickHouse failures: 503 with Retry-After before the first byte, a cut export after', function () {
  this.timeout(240_000);
  let copy: AttachedCopy;
  let cluster: ClickHouseCluster;
  let proxy: ResettingProxy;
  let server: TestServer;

  before(async () => {
    copy = await portalWithAttachedCopy(
      'seattle-weather',
      { parquetId: 'seattle', attachedId: 'weather', table: 'weather' },
      ['--facet', 'weather'],
    );
    cluster = copy.cluster;
    // Scanned until stopped (10^11 rows a shard), and 2M rows a shard to export.
    await attachNumbers(copy, 'endless', 1e11);
    await attachNumbers(copy, 'numbers', 2e6);
    proxy = await resettingProxy(cluster.shards[0]!.httpPort);
    const credentials = `${encodeURIComponent(PORTAL_USER)}:${encodeURIComponent(PORTAL_PASSWORD)}`;
    const proxied = `http://${credentials}@127.0.0.1:${proxy.port}`;
    await copy.attach(['--id', 'proxied', '--table', 'numbers', '--quiet'], proxied);
    server = await startTestServer(copy.portalDir, { cacheBytes: 0 });
  });
  after(async () => {
    await server?.close();
    proxy?.close();
    await copy?.remove();
  });

  /** Kills the read-only user's queries on the first shard, as its operator would, until `until` settles. */
  const killUntil = async <T>(until: Promise<T>): Promise<T> => {
    let settled = false;
    void until.finally(() => (settled = true));
    while (!settled) {
      await cluster.admin(`KILL QUERY WHERE user = '${PORTAL_USER}' ASYNC`, 0);
      await sleep(100);
    }
    return until;
  };

  /** The status, Retry-After and error object of an answer. */
  const errorOf = async (response: Response) => ({
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as { error_code: string; message: string },
  });

  it('answers 503 with Retry-After when the operator kills a query, for records and an export before its first byte', async () => {
    for (const path of [
      `${v2}/endless/records?limit=0&where=n%3D-1`,
      `${v2}/endless/records?select=count(*)%20as%20c&group_by=name&where=n%3D-1`,
      `${v2}/endless/exports/csv?where=n%3D-1`,
    ]) {
      const answer = await errorOf(await killUntil(server.get(path)));
      expect(answer, path).to.deep.equal({
        status: 503,
        retryAfter: '5',
        body: {
          error_code: 'QueryStoppedByServer',
          message:
            "The server holding this dataset's records stopped the query (its operator cancelled it): retry later.",
        },
      });
    }
  });

  it('answers 503 with Retry-After when a query reaches a limit of the server (max_execution_time)', async () => {
    await cluster.setReaderLimits({ max_execution_time: 1 });
    try {
      const answer = await errorOf(await server.get(`${v2}/endless/records?limit=0&where=n%3D-1`));
      expect(answer.status).to.equal(503);
      expect(answer.retryAfter).to.equal('5');
      expect(answer.body.error_code).to.equal('QueryStoppedByServer');
      expect(answer.body.message).to.include('stopped the query at one of its limits');
    } finally {
      await cluster.setReaderLimits({});
    }
  });

  it('cuts an export the operator kills after its first byte: CSV, JSON, Parquet, a single text column', async () => {
    for (const path of [
      `${v2}/numbers/exports/csv`,
      `${v2}/numbers/exports/json`,
      `${v2}/numbers/exports/parquet`,
      `${v2}/numbers/exports/csv?select=name`,
    ]) {
      const response = await server.get(path);
      expect(response.status, path).to.equal(200);
      const reader = response.body!.getReader();
      await reader.read();
      reader.releaseLock();
      const body = await killUntil(readBody(response));
      expect(body.complete, path).to.equal(false);
      expect(body.text, path).not.to.match(/Code: \d+|DB::Exception/);
    }
  });

  it('answers 503 when the connection to ClickHouse resets before the first byte, and cuts an export after it', async () => {
    try {
      // At 0 bytes every answer is cut, at 1 KiB an export's columns pass and its rows are cut.
      for (const [cut, paths] of [
        [0, ['records?limit=1', 'exports/csv']],
        [1024, ['exports/csv', 'exports/parquet', 'exports/json']],
      ] as const) {
        proxy.cut(cut);
        for (const path of paths) {
          const answer = await errorOf(await server.get(`${v2}/proxied/${path}`));
          expect(answer, `${path} cut at ${cut}`).to.deep.include({ status: 503, retryAfter: '5' });
          expect(answer.body.error_code, path).to.equal('EngineUnavailable');
        }
      }
      // Past the first byte: CSV lines are sent as they come, so 16 MiB of them (about 370,000 of
      // the 4M rows) is a transfer cut. Parquet's first byte is DuckDB's to write (a row group
      // done, or the file's end): a cut before it is a 503 as above, after it a cut transfer;
      // never a whole 200 of a short file that looks complete.
      proxy.cut(16 << 20);
      const csv = await server.get(`${v2}/proxied/exports/csv`);
      expect(csv.status).to.equal(200);
      expect((await readBody(csv)).complete).to.equal(false);
      const parquet = await server.get(`${v2}/proxied/exports/parquet`);
      if (parquet.status === 200) expect((await readBody(parquet)).complete).to.equal(false);
      else expect(await errorOf(parquet)).to.deep.include({ status: 503, retryAfter: '5' });
    } finally {
      proxy.cut(null);
    }
  });

  it('cuts an export whose shard stops after its first byte', async () => {
    const response = await server.get(`${v2}/numbers/exports/csv?select=name`);
    expect(response.status).to.equal(200);
    const reader = response.body!.getReader();
    await reader.read();
    reader.releaseLock();
    // Unread meanwhile: the shard's query is still sending when the shard stops (a stop waits 5 s
    // for running queries, and one read at once would have finished by then).
    await cluster.stopShard(1);
    const body = await readBody(response);
    expect(body.complete).to.equal(false);
    expect(body.text).not.to.match(/Code: \d+|DB::Exception/);
  });

  it('answers 503 with Retry-After on records, aggregates, facets, exports and v1 while a shard is stopped', async () => {
    // Stopped by the test before, if it ran: the server asked is up.
    await cluster.stopShard(1);
    const message =
      "A server of the cluster holding this dataset's records does not answer (a shard or its replicas down, unreachable or behind): retry later.";
    for (const path of [
      `${v2}/weather/records?limit=2`,
      `${v2}/weather/records?select=count(*)%20as%20n&group_by=weather`,
      `${v2}/weather/facets`,
      `${v2}/weather/exports/csv`,
      `${v2}/weather/exports/parquet`,
    ]) {
      expect(await errorOf(await server.get(path)), path).to.deep.equal({
        status: 503,
        retryAfter: '5',
        body: { error_code: 'EngineUnavailable', message },
      });
    }
    const v1 = await server.get('/api/records/1.0/search?dataset=weather&rows=1&facet=weather');
    expect([v1.status, v1.headers.get('retry-after'), await v1.json()]).to.deep.equal([
      503,
      '5',
      { errorcode: 503, error: message },
    ]);
    expect((await server.get(`${v2}/seattle/records?limit=1`)).status, 'the Parquet copy').to.equal(200);
    expect(server.records.filter((record) => record.status === 500)).to.deep.equal([]);
  });
});
