// Two portals in one server: the Host names the portal; each keeps its datasets, keys and tags;
// a Host that names neither gets a 404 with no dataset of either; a request naming two hosts
// (two Host headers, an absolute URI that is not the Host) a 400.
import { expect } from 'chai';
import http from 'node:http';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { KeyStore } from '../../src/auth/keys.js';
import { hostName } from '../../src/http/hosts.js';
import { UNKNOWN_HOST_LABEL } from '../../src/server/app.js';
import { addFixtureDataset, buildFixturePortal } from '../helpers/fixture-portal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { rawGet } from '../helpers/raw-http.js';

const A = 'fixture.test';
const B = 'b.example.org';

interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
}

/** GET `path` with the Host header given (undefined: no Host header at all). */
function getAs(
  server: TestServer,
  host: string | undefined,
  path: string,
  headers: http.OutgoingHttpHeaders = {},
) {
  const url = new URL(server.base);
  return new Promise<Answer>((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path,
        headers: host === undefined ? headers : { ...headers, Host: host },
        setHost: false,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, text }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

async function setPortal(dir: string, settings: Record<string, unknown>): Promise<void> {
  const file = path.join(dir, 'portal.json');
  const portal = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  await writeFile(file, JSON.stringify({ ...portal, ...settings }));
}

const datasetIds = (answer: Answer): string[] =>
  (JSON.parse(answer.text) as { results: { dataset_id: string }[] }).results.map((d) => d.dataset_id);

const CATALOG = '/api/explore/v2.1/catalog/datasets';
const TOWNS = '/api/explore/v2.1/catalog/datasets/towns/records?limit=10&order_by=name';

describe('several portals by Host', () => {
  let server: TestServer;
  let dirA: string;
  let dirB: string;
  let keyA: string;
  let keyB: string;
  before(async () => {
    dirA = await buildFixturePortal();
    dirB = await buildFixturePortal();
    await setPortal(dirB, { title: 'Portal B', domain: 'B.Example.org', aliases: ['data.b.example.org'] });
    // Same dataset id, other rows: each portal must read its own view.
    await rm(path.join(dirB, 'datasets', 'towns'), { recursive: true });
    await rm(path.join(dirB, 'datasets', 'words'), { recursive: true });
    await addFixtureDataset(dirB, 'towns', `SELECT 'b1' AS _recordid, 'Bruges' AS name`, [
      { name: 'name', label: 'Name', type: 'text', description: null, annotations: {} },
    ]);
    await addFixtureDataset(dirB, 'rivers', `SELECT 'r1' AS _recordid, 'Rhine' AS name`, [
      { name: 'name', label: 'Name', type: 'text', description: null, annotations: {} },
    ]);
    keyA = new KeyStore(dirA).create('alice').key;
    keyB = new KeyStore(dirB).create('bob').key;
    server = await startTestServer([dirA, dirB]);
  });
  after(async () => {
    await server.close();
    await rm(dirA, { recursive: true, force: true });
    await rm(dirB, { recursive: true, force: true });
  });

  it('reads the host name of a Host header, and nothing from an odd one', () => {
    expect(hostName('Data.Example.ORG:8443')).to.equal('data.example.org');
    expect(hostName('example.org.')).to.equal('example.org');
    expect(hostName('[::1]:80')).to.equal('[::1]');
    for (const odd of [
      undefined,
      '',
      ':8080',
      'a b',
      'x@example.org',
      'example.org/x',
      'a,b',
      '-a.org',
      'a..org',
      'a:b',
    ])
      expect(hostName(odd), String(odd)).to.equal(null);
  });

  it('answers each portal on its domain and aliases, any case, any port', async () => {
    expect(datasetIds(await getAs(server, A, CATALOG))).to.deep.equal(['towns', 'words']);
    for (const host of [B, 'b.example.org:8080', 'DATA.B.EXAMPLE.ORG', 'data.b.example.org.:443']) {
      expect(datasetIds(await getAs(server, host, CATALOG)), host).to.deep.equal(['rivers', 'towns']);
    }
    const townsA = JSON.parse((await getAs(server, A, TOWNS)).text) as { results: { name: string }[] };
    const townsB = JSON.parse((await getAs(server, B, TOWNS)).text) as { results: { name: string }[] };
    expect(townsA.results.map((r) => r.name)).to.deep.equal(['Lyon', 'Paris', 'Évian']);
    expect(townsB.results.map((r) => r.name)).to.deep.equal(['Bruges']);
    expect((await getAs(server, A, '/api/explore/v2.1/catalog/datasets/rivers/records')).status).to.equal(
      404,
    );
    const sql = await getAs(
      server,
      B,
      `/api/explore/v2.1/catalog/datasets/rivers/records?select=count(*)%20as%20n`,
    );
    expect(JSON.parse(sql.text)).to.deep.equal({ total_count: 1, results: [{ n: 1 }] });
  });

  it('answers a Host that names no portal with 404 and no dataset, in each API generation', async () => {
    const paths = [CATALOG, TOWNS, '/explore/dataset/towns/table/', '/api/records/1.0/search/?dataset=towns'];
    for (const host of [
      undefined,
      '',
      ':8080',
      'other.example',
      'fixture.test@b.example.org',
      'a,fixture.test',
    ]) {
      for (const url of paths) {
        const answer = await getAs(server, host, url);
        expect(answer.status, `${host} ${url}`).to.equal(404);
        expect(answer.text).not.to.match(/Paris|Bruges|towns|rivers|words/);
        const body = JSON.parse(answer.text) as Record<string, unknown>;
        if (url.startsWith('/api/records/1.0')) expect(body).to.deep.include({ errorcode: 404 });
        else expect(body).to.deep.include({ error_code: 'NotFoundResource' });
      }
    }
    // Logged and counted like any answer, under a label of no portal.
    const logged = server.records.filter((r) => r.msg === 'request' && r.portal === UNKNOWN_HOST_LABEL);
    expect(logged.length).to.be.at.least(24);
    expect(logged.every((r) => r.status === 404)).to.equal(true);
    const metrics = await (await server.get('/metrics')).text();
    const count = new RegExp(
      `^duckportal_http_requests_total\\{portal="\\(unknown host\\)",route="unmatched",method="GET",status="404"\\} (\\d+)$`,
      'm',
    ).exec(metrics);
    expect(Number(count?.[1])).to.be.at.least(24);
  });

  it('refuses a request that names two hosts with a JSON 400, on every route (was answered by the Host)', async () => {
    const targets = (host: string) => [
      `http://${host}${CATALOG}`,
      `http://${host}/explore/`,
      `http://${host}/account/`,
      `http://${host}/api/records/1.0/search/?dataset=towns`,
    ];
    const cases: [string, readonly string[], string][] = [
      ...[CATALOG, '/explore/', '/account/', TOWNS].flatMap((route) => [
        [route, ['Host', A, 'Host', B], '2 Host headers'] as [string, string[], string],
        [route, ['Host', B, 'host', B], '2 Host headers'] as [string, string[], string],
      ]),
      ...targets(B).map((target): [string, string[], string] => [target, ['Host', A], `names ${B}`]),
      ...targets(A).map((target): [string, string[], string] => [target, ['Host', B], `names ${A}`]),
      [`http://${A}:8080${CATALOG}`, ['Host', A], `names ${A}:8080`],
      [`https://${A}${CATALOG}`, ['Host', `${A}:80`], `names ${A}`],
      [`http://${A}${CATALOG}`, [], 'no Host header'],
    ];
    for (const [target, headers, reason] of cases) {
      const answer = await rawGet(server.base, target, headers);
      const text = answer.body.toString();
      expect(answer.status, `${target} ${headers.join(' ')}`).to.equal(400);
      expect(answer.headers['x-request-id']).to.be.a('string');
      expect(text).not.to.match(/Paris|Bruges|rivers|words|<html/);
      const body = JSON.parse(text) as Record<string, unknown>;
      const message = String(body.message ?? body.error);
      expect(message).to.include("The request's host is ambiguous").and.include(reason);
    }
    // One Host, or an absolute URI that names it (any case, its default port): answered.
    for (const [target, host] of [
      [CATALOG, B],
      [`http://${B.toUpperCase()}${CATALOG}`, B],
      [`http://${B}:80${CATALOG}`, `${B}:80`],
      [`https://${A}${CATALOG}`, `${A}:443`],
    ] as const) {
      expect((await rawGet(server.base, target, ['Host', host])).status, target).to.equal(200);
    }
  });

  it("keeps each portal's keys: a key of one is unknown on the other", async () => {
    const withKey = (key: string) => ({ Authorization: `Apikey ${key}` });
    expect((await getAs(server, A, CATALOG, withKey(keyA))).status).to.equal(200);
    expect((await getAs(server, B, CATALOG, withKey(keyB))).status).to.equal(200);
    const crossed = await getAs(server, B, CATALOG, withKey(keyA));
    expect(crossed.status).to.equal(401);
    expect(JSON.parse(crossed.text)).to.deep.include({ error_code: 'InvalidAPIKey' });
    expect((await getAs(server, A, `${CATALOG}?apikey=${keyB}`)).status).to.equal(401);
  });

  it('tags the same request differently on each portal', async () => {
    const path = '/api/explore/v2.1/catalog/datasets/towns/records?select=count(*)%20as%20n';
    const tagA = (await getAs(server, A, path)).headers.etag;
    const tagB = (await getAs(server, B, path)).headers.etag;
    expect(tagA).to.be.a('string');
    expect(tagB).to.be.a('string').and.not.equal(tagA);
    const revalidated = await getAs(server, B, path, { 'If-None-Match': tagA });
    expect(revalidated.status).to.equal(200);
  });

  it('answers /readyz and /metrics whatever the Host, with a label per portal', async () => {
    expect((await getAs(server, 'nowhere.example', '/readyz')).status).to.equal(200);
    const metrics = (await getAs(server, undefined, '/metrics')).text;
    for (const label of [path.basename(dirA), path.basename(dirB)])
      expect(metrics).to.include(`duckportal_datasets{portal="${label}"}`);
  });

  it('reloads every portal, each from its own folder', async () => {
    await addFixtureDataset(dirB, 'lakes', `SELECT 'l1' AS _recordid, 'Constance' AS name`, [
      { name: 'name', label: 'Name', type: 'text', description: null, annotations: {} },
    ]);
    await server.portal.reload();
    expect(datasetIds(await getAs(server, B, CATALOG))).to.deep.equal(['lakes', 'rivers', 'towns']);
    expect(datasetIds(await getAs(server, A, CATALOG))).to.deep.equal(['towns', 'words']);
  });
});
