// --trust-proxy: X-Forwarded-For, -Proto and -Host give the client's address (per-IP quotas and
// the log) and the scheme and host of links, only when it is set.
import { expect } from 'chai';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildFixturePortal } from '../helpers/fixture-portal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const V21 = '/api/explore/v2.1';
const RECORDS = `${V21}/catalog/datasets/towns/records?limit=1&include_links=true`;

/** The fixture portal with a quota of 2 calls a day per address. */
async function quotaPortal(): Promise<string> {
  const dir = await buildFixturePortal();
  const file = path.join(dir, 'portal.json');
  const settings = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  await writeFile(file, JSON.stringify({ ...settings, quotas: { per_ip: 2 } }));
  return dir;
}

const forwarded = (address: string): RequestInit => ({
  headers: {
    'X-Forwarded-For': address,
    'X-Forwarded-Proto': 'https',
    'X-Forwarded-Host': 'data.example.org',
  },
});

describe('--trust-proxy', () => {
  let dir: string;
  let server: TestServer;
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('off (the default): X-Forwarded-* are ignored, every address shares the proxy quota', async () => {
    dir = await quotaPortal();
    server = await startTestServer(dir);
    const first = await server.get(RECORDS, forwarded('203.0.113.1'));
    expect(((await first.json()) as { links: { href: string }[] }).links[0]!.href).to.match(
      new RegExp(`^${server.base}${V21}/`),
    );
    expect((await server.get(RECORDS, forwarded('203.0.113.2'))).status).to.equal(200);
    expect((await server.get(RECORDS, forwarded('203.0.113.3'))).status).to.equal(429);
    const clients = server.records.filter((r) => r.msg === 'request').map((r) => r.client);
    expect(clients).to.deep.equal(['127.0.0.1', '127.0.0.1', '127.0.0.1']);
  });

  it('on: the address the proxy saw has its own quota and log entry; links take its scheme and host', async () => {
    dir = await quotaPortal();
    server = await startTestServer(dir, { trustProxy: true });
    const first = await server.get(RECORDS, forwarded('198.51.100.7, 203.0.113.1'));
    expect(first.status).to.equal(200);
    const body = (await first.json()) as { links: { href: string }[] };
    expect(
      body.links[0]!.href.startsWith(`https://data.example.org${V21}/catalog/datasets/towns/records`),
    ).to.equal(true);
    // The last address is the one the proxy appended; the ones before it are the client's word.
    expect((await server.get(RECORDS, forwarded('198.51.100.8, 203.0.113.1'))).status).to.equal(200);
    expect((await server.get(RECORDS, forwarded('203.0.113.1'))).status).to.equal(429);
    expect((await server.get(RECORDS, forwarded('203.0.113.2'))).status).to.equal(200);
    const clients = server.records.filter((r) => r.msg === 'request').map((r) => r.client);
    expect(clients).to.deep.equal(['203.0.113.1', '203.0.113.1', '203.0.113.1', '203.0.113.2']);
  });
});
