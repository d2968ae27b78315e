// Record ids of a dataset whose ids come from a field (`--record-id iata`): an audience that
// cannot see the field gets opaque ids, and looks records up by those only.
import { expect } from 'chai';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { KeyStore } from '../../src/auth/keys.js';
import { ingest } from '../../src/ingest/ingest.js';
import { startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';

const V21 = '/api/explore/v2.1';
const DATASET = `${V21}/catalog/datasets/airports`;
const CODES = /SFO|LAX|CDG|LHR/;

async function addAirports(portal: string): Promise<void> {
  const csv = path.join(portal, 'airports.csv');
  await writeFile(
    csv,
    'iata,name,country\nSFO,San Francisco,US\nLAX,Los Angeles,US\nCDG,Paris Roissy,FR\nLHR,London Heathrow,GB\n',
  );
  await ingest({ file: csv, portal, id: 'airports', recordId: 'iata' });
  const file = path.join(portal, 'datasets', 'airports', 'dataset.json');
  const dataset = JSON.parse(await readFile(file, 'utf8'));
  dataset.access = [
    { groups: ['press'], hidden_fields: ['iata'] },
    { groups: ['fr'], hidden_fields: ['iata'], row_filter: "country = 'FR'" },
    { groups: ['us'], row_filter: "country = 'US'" },
  ];
  await writeFile(file, JSON.stringify(dataset));
}

describe('record ids and hidden fields (fixture portal)', () => {
  let server: TestServer;
  const keys = new Map<string, string>();

  before(async () => {
    server = await startFixtureServer(async (portal) => {
      await addAirports(portal);
      const store = new KeyStore(portal);
      for (const group of ['press', 'fr', 'us']) keys.set(group, store.create(group, [group]).key);
    });
  });
  after(() => server.close());

  const get = async (route: string, group: string | null) => {
    const response = await server.get(
      route,
      group ? { headers: { Authorization: `Apikey ${keys.get(group)}` } } : {},
    );
    return { status: response.status, text: await response.text() };
  };
  const selfLinks = async (group: string | null): Promise<Map<string, string>> => {
    const { text } = await get(`${DATASET}/records?include_links=true&select=name`, group);
    const body = JSON.parse(text) as { results: { name: string; _links: { href: string }[] }[] };
    return new Map(body.results.map((r) => [r.name, r._links[0]!.href.split('/records/')[1]!]));
  };

  it('shows no value of the hidden id field in any records, v1 or export answer', async () => {
    const routes = [
      `${DATASET}/records?include_links=true`,
      `${DATASET}/records?include_links=true&group_by=country`,
      `${DATASET}/exports/json`,
      `${DATASET}/exports/csv`,
      '/api/records/1.0/search?dataset=airports',
      '/api/records/1.0/download?dataset=airports&format=json',
      '/api/records/1.0/download?dataset=airports&format=csv',
    ];
    for (const route of routes) {
      const { status, text } = await get(route, 'press');
      expect(status, route).to.equal(200);
      if (!route.includes('group_by')) expect(text, route).to.include('San Francisco');
      expect(text, route).to.not.match(CODES);
    }
  });

  it('looks records up by the opaque id only, for the audience that got it', async () => {
    const ids = await selfLinks('press');
    const opaque = ids.get('San Francisco')!;
    expect(opaque).to.match(/^[0-9a-f]{32}$/);
    expect(new Set(ids.values()).size).to.equal(4);
    expect(await selfLinks('press'), 'stable').to.deep.equal(ids);
    const found = await get(`${DATASET}/records/${opaque}`, 'press');
    expect(found.status).to.equal(200);
    expect(JSON.parse(found.text)).to.deep.equal({ name: 'San Francisco', country: 'US' });
    const v1 = await get(`/api/datasets/1.0/airports/records/${opaque}`, 'press');
    expect(JSON.parse(v1.text)).to.deep.include({ recordid: opaque });
    expect((await get(`${DATASET}/records/SFO`, 'press')).status).to.equal(404);
    expect((await get('/api/datasets/1.0/airports/records/SFO', 'press')).status).to.equal(404);
    // Another audience hiding the field has ids of its own: press's are unknown to it.
    expect((await get(`${DATASET}/records/${opaque}`, 'fr')).status).to.equal(404);
  });

  it("finds only records the caller's row filter lets through", async () => {
    const paris = (await selfLinks('fr')).get('Paris Roissy')!;
    expect([...(await selfLinks('fr')).keys()]).to.deep.equal(['Paris Roissy']);
    expect((await get(`${DATASET}/records/${paris}`, 'fr')).status).to.equal(200);
    expect((await get(`${DATASET}/records/SFO`, 'us')).status).to.equal(200);
    expect((await get(`${DATASET}/records/CDG`, 'us')).status).to.equal(404);
  });

  it('keeps plain ids for an audience that sees the field', async () => {
    expect(await selfLinks(null)).to.deep.equal(
      new Map([
        ['San Francisco', 'SFO'],
        ['Los Angeles', 'LAX'],
        ['Paris Roissy', 'CDG'],
        ['London Heathrow', 'LHR'],
      ]),
    );
    expect((await get(`${DATASET}/records/SFO`, null)).status).to.equal(200);
    expect(
      JSON.parse((await get('/api/records/1.0/search?dataset=airports&rows=1', 'us')).text).records[0]
        .recordid,
    ).to.equal('SFO');
  });
});
