// Every v2.0 route under both of its paths (supplement 7): the nesting of its answer, its absolute
// links under the path the client used, and its values against DuckDB over the same Parquet rows
// (or against v2.1 where the two generations share an answer).
import { expect } from 'chai';
import { useSampleSuite } from '../../helpers/sample-portal.js';

const V21 = '/api/explore/v2.1';
const PREFIXES = ['/api/explore/v2.0', '/api/v2'] as const;

type Link = { href: string; rel: string };
type Nested = { links: Link[]; record: { id: string | null; timestamp: string; size: number; fields: any } };

/** The links of an answer by relation. */
const rels = (links: Link[]) => Object.fromEntries(links.map((l) => [l.rel, l.href]));

describe('v2.0 routes: nesting, links and values (sample portal)', () => {
  const suite = useSampleSuite();
  const json = async (path: string) => {
    const { status, body } = await suite.server.json(path);
    expect(status, `${path}: ${JSON.stringify(body)}`).to.equal(200);
    return body;
  };
  const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

  for (const prefix of PREFIXES) {
    describe(prefix, () => {
      const base = () => `${suite.server.base}${prefix}`;

      it('/ and /catalog link to what they hold', async () => {
        expect(await json(`${prefix}/`)).to.deep.equal({
          links: [{ href: `${base()}/catalog`, rel: 'catalog' }],
        });
        const catalog = rels((await json(`${prefix}/catalog`)).links);
        expect(catalog).to.deep.equal({
          datasets: `${base()}/catalog/datasets`,
          exports: `${base()}/catalog/exports`,
          facets: `${base()}/catalog/facets`,
          aggregates: `${base()}/catalog/aggregates`,
        });
      });

      it('records: {total_count, links, records: [{links, record: {id, timestamp, size, fields}}]}', async () => {
        const params = { select: 'iata, name, city, latitude', where: "state = 'CA'", order_by: 'iata' };
        const body = await json(
          `${prefix}/catalog/datasets/airports/records?${query({ ...params, limit: '3', offset: '2' })}`,
        );
        const [{ n }] = (await suite.reference.rows(
          "SELECT count(*)::INTEGER AS n FROM airports WHERE state = 'CA'",
        )) as [{ n: number }];
        const expected = await suite.reference.rows(
          "SELECT iata, name, city, latitude FROM airports WHERE state = 'CA' ORDER BY iata LIMIT 3 OFFSET 2",
        );
        expect(Object.keys(body)).to.deep.equal(['total_count', 'links', 'records']);
        expect(body.total_count).to.equal(n);
        const records = body.records as Nested[];
        expect(records.map((r) => r.record.fields)).to.deep.equal(expected);
        const processed = (await json(`${V21}/catalog/datasets/airports`)).metas.default.data_processed;
        for (const { links, record } of records) {
          expect(Object.keys(record)).to.deep.equal(['id', 'timestamp', 'size', 'fields']);
          expect(record.id).to.equal(record.fields.iata);
          expect(Date.parse(record.timestamp)).to.equal(Date.parse(processed));
          expect(record.size).to.equal(Buffer.byteLength(JSON.stringify(record.fields)));
          const dataset = `${base()}/catalog/datasets/airports`;
          expect(links).to.deep.equal([
            { href: `${dataset}/records/${record.id}`, rel: 'self' },
            { href: dataset, rel: 'datasets' },
          ]);
        }
        const page = rels(body.links);
        const at = (offset: number) =>
          `${base()}/catalog/datasets/airports/records?${query({ ...params, limit: '3', offset: String(offset) })}`;
        expect(page).to.deep.equal({
          self: at(2),
          first: at(0),
          last: at(Math.floor((n - 1) / 3) * 3),
          next: at(5),
        });
        // The last page has no next link, and following `last` answers it.
        const last = await json(page.last!.slice(suite.server.base.length));
        expect(rels(last.links)).to.not.have.property('next');
        expect(last.records).to.have.length(n - Math.floor((n - 1) / 3) * 3);
      });

      it('a record lookup: {record: {id, timestamp, size, fields}, links}', async () => {
        const body = await json(`${prefix}/catalog/datasets/airports/records/SFO?select=iata,city,longitude`);
        const [expected] = await suite.reference.rows(
          "SELECT iata, city, longitude FROM airports WHERE iata = 'SFO'",
        );
        expect(Object.keys(body)).to.deep.equal(['record', 'links']);
        expect(body.record).to.include({ id: 'SFO' });
        expect(body.record.fields).to.deep.equal(expected);
        const dataset = `${base()}/catalog/datasets/airports`;
        expect(body.links).to.deep.equal([
          { href: `${dataset}/records/SFO`, rel: 'self' },
          { href: dataset, rel: 'datasets' },
        ]);
        const missing = await suite.server.json(`${prefix}/catalog/datasets/airports/records/NOPE`);
        expect(missing.status).to.equal(404);
        expect(missing.body.error_code).to.equal('NotFoundResource');
      });

      it('the catalog: {total_count, links, datasets: [{links, dataset}]}, as v2.1 lists them', async () => {
        const body = await json(`${prefix}/catalog/datasets?limit=2&order_by=dataset_id`);
        const v21 = await json(`${V21}/catalog/datasets?limit=2&order_by=dataset_id`);
        expect(Object.keys(body)).to.deep.equal(['total_count', 'links', 'datasets']);
        expect(body.total_count).to.equal(v21.total_count);
        expect(body.datasets.map((d: { dataset: unknown }) => d.dataset)).to.deep.equal(v21.results);
        for (const { links, dataset } of body.datasets as {
          links: Link[];
          dataset: { dataset_id: string };
        }[]) {
          const self = `${base()}/catalog/datasets/${dataset.dataset_id}`;
          expect(rels(links)).to.deep.equal({
            self,
            datasets: `${base()}/catalog/datasets`,
            records: `${self}/records`,
            aggregates: `${self}/aggregates`,
            exports: `${self}/exports`,
            facets: `${self}/facets`,
            attachments: `${self}/attachments`,
          });
        }
        expect(rels(body.links)).to.include({
          next: `${base()}/catalog/datasets?limit=2&order_by=dataset_id&offset=2`,
        });
      });

      it('a dataset lookup: {links, dataset}, the dataset as v2.1 answers it', async () => {
        const body = await json(`${prefix}/catalog/datasets/movies`);
        expect(Object.keys(body)).to.deep.equal(['links', 'dataset']);
        expect(body.dataset).to.deep.equal(await json(`${V21}/catalog/datasets/movies`));
        expect(rels(body.links).self).to.equal(`${base()}/catalog/datasets/movies`);
        const selected = await json(`${prefix}/catalog/datasets/movies?select=dataset_id,records_count`);
        expect(selected.dataset).to.deep.equal({ dataset_id: 'movies', records_count: 3201 });
      });

      it('aggregates of a dataset: {aggregations, links}, without the null group', async () => {
        const params = {
          select: 'mpaa_rating, count(*) as n, avg(imdb_rating) as rating',
          group_by: 'mpaa_rating',
          order_by: 'mpaa_rating',
        };
        const path = `${prefix}/catalog/datasets/movies/aggregates?${query(params)}`;
        const body = await json(path);
        const expected = await suite.reference.rows(
          `SELECT mpaa_rating, count(*)::INTEGER AS n, avg(imdb_rating) AS rating FROM movies
           WHERE mpaa_rating IS NOT NULL GROUP BY mpaa_rating ORDER BY mpaa_rating`,
        );
        expect(Object.keys(body)).to.deep.equal(['aggregations', 'links']);
        expect(body.aggregations).to.have.length(expected.length);
        body.aggregations.forEach((row: any, i: number) => {
          expect(row.mpaa_rating).to.equal(expected[i]!.mpaa_rating);
          expect(row.n).to.equal(expected[i]!.n);
          expect(row.rating).to.be.closeTo(Number(expected[i]!.rating), 1e-9);
        });
        expect(body.links).to.deep.equal([{ href: `${suite.server.base}${path}`, rel: 'self' }]);
        const whole = await json(`${prefix}/catalog/datasets/movies/aggregates?where=imdb_rating>8`);
        const [{ n }] = (await suite.reference.rows(
          'SELECT count(*)::INTEGER AS n FROM movies WHERE imdb_rating > 8',
        )) as [{ n: number }];
        expect(whole.aggregations).to.deep.equal([{ 'count(*)': n }]);
      });

      it('aggregates of the catalog, as v2.1 groups the catalog', async () => {
        const params = { select: 'features, count(*) as n', group_by: 'features', order_by: 'features' };
        const body = await json(`${prefix}/catalog/aggregates?${query(params)}`);
        const v21 = await json(`${V21}/catalog/datasets?${query({ ...params, limit: '100' })}`);
        expect(body.aggregations).to.deep.equal(v21.results);
        expect(rels(body.links).self).to.equal(`${base()}/catalog/aggregates?${query(params)}`);
      });

      it('facets, attachments and export lists as v2.1 answers them, linked under v2.0', async () => {
        const under = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll(V21, prefix));
        for (const tail of [
          'catalog/datasets/airports/facets?facet=state&refine=country:USA',
          'catalog/facets?facet=features',
          'catalog/datasets/airports/attachments',
          'catalog/datasets/airports/exports',
          'catalog/exports',
        ]) {
          expect(await json(`${prefix}/${tail}`), tail).to.deep.equal(under(await json(`${V21}/${tail}`)));
        }
      });

      it('exports and attachment files as v2.1 serves them', async () => {
        for (const tail of [
          'catalog/datasets/movies/exports/csv?where=imdb_rating>8.5&order_by=title&select=title,imdb_rating',
          'catalog/datasets/airports/attachments/airports_csv',
          'catalog/exports/json?select=dataset_id',
        ]) {
          const v20 = await suite.server.get(`${prefix}/${tail}`);
          expect(v20.status, tail).to.equal(200);
          expect(await v20.text()).to.equal(await (await suite.server.get(`${V21}/${tail}`)).text());
        }
      });

      it('the removed query operation answers 410, an unknown path 404, in the v2.1 error object', async () => {
        const gone = await suite.server.json(`${prefix}/catalog/datasets/movies/query`);
        expect(gone.status).to.equal(410);
        expect(gone.body.error_code).to.equal('GoneOperation');
        const missing = await suite.server.json(`${prefix}/catalog/nope`);
        expect(missing.status).to.equal(404);
        expect(Object.keys(missing.body)).to.include.members(['error_code', 'message']);
      });
    });
  }
});
