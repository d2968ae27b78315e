// v2.0 requests written the way public clients write them (encoded or not, odd spacing, repeated
// parameters, trailing slashes), answered as DuckDB reads the same rows; hostile ones answered a
// clean 4xx in the v2.1 error object, with no effect; links from the forwarded scheme and host
// behind --trust-proxy only, and never carrying an API key.
import { expect } from 'chai';
import type { Context } from 'koa';
import { pageLinks, requestUrl } from '../../../src/api/v20/links.js';
import { rawGet } from '../../helpers/raw-http.js';
import { SAMPLE_PORTAL, useSampleSuite } from '../../helpers/sample-portal.js';
import { startTestServer } from '../../helpers/server.js';

const RECORDS = '/api/v2/catalog/datasets/airports/records';

describe('v2.0 requests as clients write them (sample portal)', () => {
  const suite = useSampleSuite();
  const raw = async (route: string, headers: Record<string, string> = {}, base = suite.server.base) => {
    const answer = await rawGet(base, route, headers);
    return { status: answer.status, body: JSON.parse(answer.body.toString('utf8')) };
  };
  const count = async (where: string) =>
    Number((await suite.reference.rows(`SELECT count(*)::INTEGER AS n FROM airports WHERE ${where}`))[0]!.n);

  it('reads a where clause encoded, half-encoded, with + or odd spacing, on a path with a trailing slash', async () => {
    const n = await count("state = 'CA'");
    for (const query of [
      'where=state%20%3D%20%27CA%27',
      "where=state='CA'",
      'where=state+=+%22CA%22',
      'where=%20%20state%20%20=%20%20%22CA%22%20%20',
      "where=state%3D'CA'&limit=2&",
    ]) {
      for (const path of [RECORDS, `${RECORDS}/`]) {
        const { status, body } = await raw(`${path}?${query}`);
        expect(status, query).to.equal(200);
        expect(body.total_count, query).to.equal(n);
      }
    }
  });

  it('ANDs repeated where and refine parameters, and reads the last of a repeated limit', async () => {
    const n = await count("state = 'CA' AND latitude > 37 AND country = 'USA'");
    const { body } = await raw(
      `${RECORDS}?where=state='CA'&where=latitude%3E37&refine=country:USA&refine=state:CA&limit=1&limit=4`,
    );
    expect(body.total_count).to.equal(n);
    expect(body.records).to.have.length(4);
    const aggregated = await raw(
      "/api/v2/catalog/datasets/airports/aggregates?select=count(*)%20as%20n&where=state='CA'&where=latitude>37",
    );
    expect(aggregated.body.aggregations).to.deep.equal([
      { n: await count("state = 'CA' AND latitude > 37") },
    ]);
  });

  it("reads v2.0's spellings: distance() and geometry() filters, polygon(), include()/exclude(), IN ranges", async () => {
    const area = "geom'POLYGON((-123 37, -122 37, -122 38, -123 38, -123 37))'";
    const inside = await count('longitude BETWEEN -123 AND -122 AND latitude BETWEEN 37 AND 38');
    for (const where of [`polygon(geo_point_2d, ${area})`, `geometry(geo_point_2d, ${area}, WITHIN)`]) {
      const { body } = await raw(`${RECORDS}?limit=0&where=${encodeURIComponent(where)}`);
      expect(body.total_count, where).to.equal(inside);
    }
    const near = await raw(
      `${RECORDS}?limit=0&where=${encodeURIComponent("distance(geo_point_2d, geom'POINT(-122.375 37.619)', 1km)")}`,
    );
    expect(near.body.total_count).to.equal(1);
    const movies = '/api/v2/catalog/datasets/movies/records?limit=0&where=';
    const closed = Number(
      (
        await suite.reference.rows(
          'SELECT count(*)::INTEGER AS n FROM movies WHERE imdb_rating BETWEEN 8 AND 9',
        )
      )[0]!.n,
    );
    const open = Number(
      (
        await suite.reference.rows(
          'SELECT count(*)::INTEGER AS n FROM movies WHERE imdb_rating > 8 AND imdb_rating < 9',
        )
      )[0]!.n,
    );
    expect((await raw(`${movies}${encodeURIComponent('imdb_rating IN [8..9]')}`)).body.total_count).to.equal(
      closed,
    );
    expect((await raw(`${movies}${encodeURIComponent('imdb_rating IN ]8..9[')}`)).body.total_count).to.equal(
      open,
    );
    const selected = await raw(
      `${RECORDS}/SFO?select=${encodeURIComponent('include(c*), exclude(country)')}`,
    );
    expect(Object.keys(selected.body.record.fields)).to.deep.equal(['city']);
  });

  it('answers hostile requests a clean 4xx in the error object, with no effect', async () => {
    const before = await count('true');
    for (const route of [
      `${RECORDS}?where=1=1;%20DROP%20TABLE%20airports`,
      `${RECORDS}?select=*)%20FROM%20airports;%20--`,
      `${RECORDS}?limit=1000000000`,
      `${RECORDS}?limit=-5`,
      `${RECORDS}?offset=abc`,
      `${RECORDS}/'%20OR%201=1%20--`,
      '/api/v2/catalog/datasets/..%2F..%2Fetc%2Fpasswd/records',
      "/api/v2/catalog/datasets/airports/aggregates?select=read_parquet('x')",
      '/api/v2/catalog/datasets/airports/aggregates?group_by=city;%20SELECT%201',
      '/api/v2/catalog/datasets/airports/aggregates?select=city',
      '/api/explore/v2.0/catalog/aggregates?select=count(*)&group_by=nope',
      "/api/v2/catalog/datasets?where=dataset_id='x'%20UNION%20SELECT%201",
    ]) {
      const { status, body } = await raw(route);
      expect(status, route).to.be.within(400, 499);
      expect(Object.keys(body), route).to.include.members(['error_code', 'message']);
      expect(JSON.stringify(body), route).to.not.match(/SELECT .* FROM "|read_parquet\(|duckdb/i);
    }
    expect(await count('true')).to.equal(before);
  });

  it('writes links from the forwarded scheme and host behind --trust-proxy only', async () => {
    const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'data.example.org' };
    const proxied = await startTestServer(SAMPLE_PORTAL, { trustProxy: true });
    try {
      const { body } = await raw(`${RECORDS}?limit=1`, forwarded, proxied.base);
      const hrefs: string[] = [
        ...body.links.map((l: { href: string }) => l.href),
        ...body.records[0].links.map((l: { href: string }) => l.href),
      ];
      for (const href of hrefs)
        expect(href).to.match(/^https:\/\/data\.example\.org\/api\/v2\/catalog\/datasets\//);
    } finally {
      await proxied.close();
    }
    const direct = await raw(`${RECORDS}?limit=1`, forwarded);
    expect(direct.body.links[0].href).to.equal(`${suite.server.base}${RECORDS}?limit=1`);
  });
});

describe('v2.0 links (unit)', () => {
  const ctx = (querystring: string) =>
    ({
      querystring,
      protocol: 'https',
      host: 'portal.test',
      path: '/api/v2/catalog/datasets',
      state: {},
    }) as Context;

  it('keep every parameter in its order but the API key', () => {
    expect(requestUrl(ctx('apikey=secret&where=a%3D1&where=b&limit=5'), { offset: '10' })).to.equal(
      'https://portal.test/api/v2/catalog/datasets?where=a%3D1&where=b&limit=5&offset=10',
    );
  });

  it('page within the window: no next past the last page, last within offset + limit <= window', () => {
    const rels = (offset: number, limit: number, total: number) =>
      Object.fromEntries(
        pageLinks(ctx(''), { offset, limit }, total, 10_000).map((l) => [
          l.rel,
          new URL(l.href).searchParams.get('offset'),
        ]),
      );
    expect(rels(0, 10, 25)).to.deep.equal({ self: null, first: '0', last: '20', next: '10' });
    expect(rels(20, 10, 25)).to.deep.equal({ self: null, first: '0', last: '20' });
    expect(rels(0, 30, 50_000)).to.include({ last: '9970', next: '30' });
    expect(rels(9960, 30, 50_000)).to.not.have.property('next');
    expect(rels(0, 0, 25)).to.deep.equal({ self: null, first: '0' });
  });
});
