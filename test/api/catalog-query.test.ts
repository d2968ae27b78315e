// ODSQL over the catalog (supplement 2): dataset metas as fields, `default.` optional,
// `<template>.<name>` for the others, on the sample portal's five datasets.
import { expect } from 'chai';
import { startSampleServer } from '../helpers/sample-portal.js';
import type { TestServer } from '../helpers/server.js';

const V21 = '/api/explore/v2.1';

describe('v2.1 catalog queries (sample portal)', () => {
  let server: TestServer;

  before(async () => {
    server = await startSampleServer();
  });
  after(() => server.close());

  const list = (params: Record<string, string>) =>
    server.json(`${V21}/catalog/datasets?${new URLSearchParams(params).toString()}`);
  const ids = (body: any): string[] => body.results.map((d: any) => d.dataset_id);

  it('filters datasets on a default meta, with or without the `default.` prefix', async () => {
    const bare = await list({ where: 'records_count > 3000' });
    expect(bare.status).to.equal(200);
    expect(bare.body.total_count).to.equal(3);
    expect(ids(bare.body)).to.have.members(['airports', 'flights', 'movies']);
    const prefixed = await list({ where: "default.theme = 'Environment'", order_by: 'dataset_id' });
    expect(ids(prefixed.body)).to.deep.equal(['earthquakes', 'seattle-weather']);
  });

  it('answers whole Dataset objects in the order asked', async () => {
    const { body } = await list({ order_by: 'records_count desc', limit: '2' });
    expect(body.total_count).to.equal(5);
    expect(ids(body)).to.deep.equal(['flights', 'airports']);
    expect(body.results[0]).to.include.keys('dataset_id', 'fields', 'metas', 'features');
    expect(body.results[0].metas.default.records_count).to.equal(3_000_000);
  });

  it('filters on a custom template and on dcat as `<template>.<name>`', async () => {
    const custom = await list({ where: "provenance.file = 'flights-3m.parquet'" });
    expect(ids(custom.body)).to.deep.equal(['flights']);
    const dcat = await list({ where: "dcat.creator like 'USGS'" });
    expect(ids(dcat.body)).to.deep.equal(['earthquakes']);
  });

  it('searches titles and descriptions, and filters on features', async () => {
    expect(ids((await list({ where: 'search(title, "seattle")' })).body)).to.deep.equal(['seattle-weather']);
    const geo = await list({ where: "features = 'geo'", order_by: 'dataset_id' });
    expect(ids(geo.body)).to.deep.equal(['airports', 'earthquakes']);
  });

  it('compares modified with a date literal', async () => {
    expect((await list({ where: "modified > date'2020'" })).body.total_count).to.equal(5);
    expect((await list({ where: "modified < date'2020'" })).body.total_count).to.equal(0);
  });

  it('answers flat rows with select, aggregated rows with group_by', async () => {
    const selected = await list({ select: 'dataset_id, records_count', where: "dataset_id = 'movies'" });
    expect(selected.body).to.deep.equal({
      total_count: 1,
      results: [{ dataset_id: 'movies', records_count: 3201 }],
    });
    const grouped = await list({ select: 'theme, count(*) as n', group_by: 'theme', order_by: 'theme' });
    expect(grouped.body).to.deep.equal({
      total_count: 4,
      results: [
        { theme: 'Culture', n: 1 },
        { theme: 'Environment', n: 2 },
        { theme: 'Science', n: 1 },
        { theme: 'Transport', n: 2 },
      ],
    });
  });

  it('answers the selected metas of one dataset on lookup with select', async () => {
    const { body } = await server.json(
      `${V21}/catalog/datasets/airports?select=${encodeURIComponent('title, features, records_count')}`,
    );
    expect(body).to.deep.equal({
      title: 'Airports of the United States',
      features: ['analyze', 'geo'],
      records_count: 3376,
    });
  });

  it('names the clause of an error in the public wording', async () => {
    const { status, body } = await list({ where: 'nosuchmeta = 1' });
    expect(status).to.equal(400);
    expect(body).to.deep.equal({
      error_code: 'QueryLangError',
      message: 'Unknown field: nosuchmeta. Clause(s) containing the error(s): where.',
    });
  });
});
