// Every route family of the API and the table page, asked of a dataset served from a two-shard
// ClickHouse cluster and of the same data in Parquet: the sample Seattle weather, attached by
// `duckportal attach` beside its Parquet copy. Each GET route of the OpenAPI document must be in
// the table below, so a new route family is asked of both engines or this test fails.
import { expect } from 'chai';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { createHash } from 'node:crypto';
import { KeyStore } from '../../src/auth/keys.js';
import { clickhouseDialect } from '../../src/odsql/dialect/clickhouse/dialect.js';
import { launchBrowser, type TestBrowser } from '../helpers/browser.js';
import { portalWithAttachedCopy, type AttachedCopy } from '../helpers/clickhouse-attached.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const PARQUET = 'seattle';
const ATTACHED = 'seattle-ch';
/** The same two, restricted to an audience, one user of which sees only rainy days without wind. */
const RESTRICTED = ['seattle-staff', 'seattle-ch-staff'] as const;
const ACCESS = [{ users: ['carol'], hidden_fields: ['wind'], row_filter: "weather = 'rain'" }];
const V21 = '/api/explore/v2.1';

/** A route's request for a dataset id (and a record id of it), and how answers are compared. */
interface RouteCase {
  readonly route: string;
  readonly request: (id: string, recordId: string) => string;
  /** What of an answer must be equal for both datasets (the whole answer when absent). */
  readonly compare?: (body: any, id: string) => unknown;
}

/** The dataset's own entry of a list of datasets (v2.1 catalog, v1 search). */
const entryOf = (list: any[], id: string): unknown => {
  const entry = list.find((d) => (d.dataset_id ?? d.datasetid) === id);
  expect(entry, `${id} in the list`).to.not.equal(undefined);
  return fieldsOf(entry);
};

/** A dataset's fields and record count, in either generation's form. */
const fieldsOf = (dataset: any): unknown => ({
  fields: dataset.fields.map((f: any) => [f.name, f.type]),
  records: dataset.metas?.default?.records_count ?? dataset.metas?.records_count ?? null,
  features: dataset.features,
});

const CASES: readonly RouteCase[] = [
  {
    route: `${V21}/catalog/datasets/{dataset_id}`,
    request: (id) => `${V21}/catalog/datasets/${id}`,
    compare: fieldsOf,
  },
  {
    route: `${V21}/catalog/datasets`,
    request: () => `${V21}/catalog/datasets?limit=100`,
    compare: (body, id) => entryOf(body.results, id),
  },
  {
    route: `${V21}/catalog/datasets/{dataset_id}/attachments`,
    request: (id) => `${V21}/catalog/datasets/${id}/attachments`,
  },
  {
    route: `${V21}/catalog/datasets/{dataset_id}/exports`,
    request: (id) => `${V21}/catalog/datasets/${id}/exports`,
  },
  {
    route: `${V21}/catalog/datasets/{dataset_id}/records`,
    request: (id) =>
      `${V21}/catalog/datasets/${id}/records?select=weather,count(*) as n,avg(temp_max) as t&where=date>=date'2013'&group_by=weather&order_by=n desc&limit=3`,
  },
  {
    route: `${V21}/catalog/datasets/{dataset_id}/records/{record_id}`,
    request: (id, record) => `${V21}/catalog/datasets/${id}/records/${record}`,
  },
  {
    route: `${V21}/catalog/datasets/{dataset_id}/facets`,
    request: (id) => `${V21}/catalog/datasets/${id}/facets?where=wind>4&refine=weather:rain`,
  },
  {
    route: `${V21}/catalog/datasets/{dataset_id}/exports/{format}`,
    request: (id) => `${V21}/catalog/datasets/${id}/exports/csv?where=temp_max>30&order_by=date`,
  },
  {
    route: '/api/datasets/1.0/{dataset_id}',
    request: (id) => `/api/datasets/1.0/${id}`,
    compare: fieldsOf,
  },
  {
    route: '/api/datasets/1.0/search',
    request: () => '/api/datasets/1.0/search?rows=100',
    compare: (body, id) => entryOf(body.datasets, id),
  },
  {
    route: '/api/datasets/1.0/{dataset_id}/records/{record_id}',
    request: (id, record) => `/api/datasets/1.0/${id}/records/${record}`,
  },
  {
    route: '/api/records/1.0/search',
    request: (id) =>
      `/api/records/1.0/search?dataset=${id}&rows=4&sort=-wind&facet=weather&refine.weather=rain`,
  },
  {
    route: '/api/records/1.0/download',
    request: (id) => `/api/records/1.0/download?dataset=${id}&format=csv&q=wind>6`,
  },
  {
    route: '/explore/dataset/{dataset_id}/download',
    request: (id) => `/explore/dataset/${id}/download/?format=csv&q=wind>6&refine.weather=rain`,
  },
];

/**
 * Routes that take no dataset id and answer of the whole catalog: asked once, the attached
 * dataset must be counted or listed in them as any other.
 */
const CATALOG_ROUTES = [
  `${V21}/catalog/exports`,
  `${V21}/catalog/exports/{format}`,
  `${V21}/catalog/facets`,
  `${V21}/catalog/datasets/{dataset_id}/attachments/{attachment_id}`,
  `${V21}/swagger.json`,
];

/**
 * An answer's text with the dataset's id and when its data was processed set apart, and in JSON
 * its fractional numbers to 12 significant digits: the shards add doubles in another order.
 */
function neutral(text: string, id: string, json: boolean): string {
  const plain = text
    .replaceAll(`/${id}/`, '/ID/')
    .replaceAll(`=${id}&`, '=ID&')
    .replaceAll(`"${id}"`, '"ID"')
    .replace(/"record_timestamp":"[^"]*"/g, '"record_timestamp":"T"');
  if (!json) return plain;
  return JSON.stringify(
    JSON.parse(plain, (_key, value: unknown) =>
      typeof value === 'number' && !Number.isInteger(value) ? Number(value.toPrecision(12)) : value,
    ),
  );
}

describe('every route family on a dataset served from a two-shard ClickHouse cluster', function () {
  this.timeout(180_000);
  let copy: AttachedCopy;
  let server: TestServer;
  let browser: TestBrowser;
  let recordId: string;
  let carol: string;

  before(async () => {
    copy = await portalWithAttachedCopy(
      'seattle-weather',
      { parquetId: PARQUET, attachedId: ATTACHED, table: 'weather' },
      ['--facet', 'weather'],
    );
    const datasets = path.join(copy.portalDir, 'datasets');
    await cp(path.join(datasets, PARQUET), path.join(datasets, RESTRICTED[0]), { recursive: true });
    await copy.attach(
      ['--id', RESTRICTED[1], '--table', 'weather', '--facet', 'weather'],
      copy.cluster.shards[0]!.url,
    );
    for (const id of RESTRICTED) {
      const file = path.join(datasets, id, 'dataset.json');
      const dataset = JSON.parse(await readFile(file, 'utf8'));
      await writeFile(file, JSON.stringify({ ...dataset, visibility: 'restricted', access: ACCESS }));
    }
    carol = new KeyStore(copy.portalDir).create('carol').key;
    server = await startTestServer(copy.portalDir, { cacheBytes: 0 });
    const page = await server.json(`/api/records/1.0/search?dataset=${PARQUET}&rows=1&start=500&sort=date`);
    recordId = page.body.records[0].recordid;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await copy?.remove();
  });

  it('covers every GET route of the OpenAPI document', async () => {
    const { body } = await server.json(`${V21}/swagger.json`);
    const covered = [...CASES.map((c) => c.route), ...CATALOG_ROUTES].sort();
    expect(Object.keys(body.paths).sort()).to.deep.equal(covered);
  });

  for (const { route, request, compare } of CASES) {
    it(`answers ${route} as the Parquet dataset does`, async () => {
      const [parquet, attached] = await Promise.all(
        [PARQUET, ATTACHED].map(async (id) => {
          const answer = await server.get(request(id, recordId));
          const text = await answer.text();
          expect(answer.status, text.slice(0, 300)).to.equal(200);
          const json = answer.headers.get('content-type')?.includes('json') ?? false;
          if (!compare) return neutral(text, id, json);
          return compare(JSON.parse(text), id);
        }),
      );
      expect(attached).to.deep.equal(parquet);
      if (!compare) expect(String(parquet).length).to.be.greaterThan(40);
    });
  }

  it('counts and lists the attached dataset in the catalog-wide answers', async () => {
    const facets = await server.json(`${V21}/catalog/facets?facet=features`);
    expect(facets.status).to.equal(200);
    const rows = await server.get(`${V21}/catalog/exports/csv?select=dataset_id&order_by=dataset_id`);
    expect((await rows.text()).trim().split(/\r?\n/).slice(1)).to.deep.equal(
      [PARQUET, ATTACHED, ...RESTRICTED].sort(),
    );
    const formats = await server.json(`${V21}/catalog/exports`);
    expect(formats.status).to.equal(200);
    const missing = await server.json(`${V21}/catalog/datasets/${ATTACHED}/attachments/nope`);
    expect([missing.status, missing.body.error_code]).to.deep.equal([404, 'NotFoundResource']);
  });

  it('applies access rules as on Parquet: 403 outside the audience, hidden fields and row filter within', async () => {
    const as = async (key: string | null, route: string) => {
      const answer = await server.get(route, key ? { headers: { Authorization: `Apikey ${key}` } } : {});
      const text = await answer.text();
      return [
        answer.status,
        neutral(
          text,
          RESTRICTED.find((id) => route.includes(id))!,
          true,
        ),
      ];
    };
    // Record ids are digests keyed per dataset and audience (src/auth/record-ids.ts): set apart.
    const opaque = (text: unknown) => String(text).replace(/"recordid":"[0-9a-f]{32}"/g, '"recordid":"R"');
    const routes = (id: string) => [
      `${V21}/catalog/datasets/${id}/records?select=count(*) as n,avg(temp_max) as t`,
      `${V21}/catalog/datasets/${id}/records?order_by=date desc&limit=3`,
      `${V21}/catalog/datasets/${id}/facets`,
      `/api/records/1.0/search?dataset=${id}&rows=2&sort=date`,
    ];
    for (const [index, route] of routes(RESTRICTED[1]).entries()) {
      const parquetRoute = routes(RESTRICTED[0])[index]!;
      expect((await as(null, route))[0], route).to.equal(403);
      const [parquet, attached] = [await as(carol, parquetRoute), await as(carol, route)];
      expect(opaque(attached), route).to.equal(opaque(parquet));
      expect(attached[0]).to.equal(200);
    }
    const [, counted] = await as(carol, routes(RESTRICTED[1])[0]!);
    expect(String(counted)).to.match(/"n":641,/);
    const [, page] = await as(carol, routes(RESTRICTED[1])[3]!);
    expect(String(page))
      .to.match(/"weather":"rain"/)
      .and.not.match(/"wind"/);
    // The opaque id of a record on ClickHouse finds that record there.
    const recordid = /"recordid":"([0-9a-f]{32})"/.exec(String(page))![1]!;
    const [status, record] = await as(carol, `${V21}/catalog/datasets/${RESTRICTED[1]}/records/${recordid}`);
    expect([status, JSON.parse(String(record)).date]).to.deep.equal([200, '2012-01-02']);
  });

  it("writes opaque ids' digest as DuckDB does (lowercase hex of SHA-256)", async () => {
    const sql = clickhouseDialect.keyedDigest("'key é'", "'id'", 32);
    const digest = createHash('sha256').update('key éid').digest('hex').slice(0, 32);
    expect((await copy.cluster.admin(`SELECT ${sql}`)).trim()).to.equal(digest);
  });

  /** What the table page shows once loaded: the count and the first rows' cells. */
  async function tableShown(page: Page): Promise<{ count: string; rows: string[][] }> {
    await page.waitForFunction(() => /\d/.test(document.querySelector('.total output')?.textContent ?? ''));
    await page.waitForSelector('table.records tbody tr');
    return {
      count: await page.$eval('.total output', (o) => o.textContent ?? ''),
      rows: await page.$$eval('table.records tbody tr', (trs) =>
        trs.slice(0, 5).map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
      ),
    };
  }

  it('shows the same table page, refined and sorted, in a browser', async () => {
    const shown = [];
    for (const id of [PARQUET, ATTACHED]) {
      const page = await browser.open(
        `${server.base}/explore/dataset/${id}/table/?refine.weather=rain&sort=-temp_max&where=wind>3`,
      );
      shown.push(await tableShown(page));
      await page.close();
    }
    expect(shown[0]!.rows.length).to.equal(5);
    expect(Number(shown[0]!.count.replace(/\D/g, ''))).to.be.greaterThan(50);
    expect(shown[1]).to.deep.equal(shown[0]);
    expect(browser.foreign(server.base)).to.deep.equal([]);
  });
});
