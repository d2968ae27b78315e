// Automatic facets: a dataset ingested without --facet gets its categories and dates as facets,
// recorded in dataset.json (annotation and computed.auto_facets); --facet and --no-auto-facets override.
import { expect } from 'chai';
import { ingest } from '../../src/ingest/ingest.js';
import { AUTO_FACET_RULES, isCategory } from '../../src/ingest/auto-facets.js';
import { fixture, ingestCommand, readDatasetFile, useTempPortal } from './helpers.js';

const ROWS = 200;

/**
 * 200 rows: a category of 5 values, a unique code, a city of 120 values (over 50 and over 5%), a
 * long comment of 3 values, a repeating customer_id, a constant, a date, an amount, tags and a
 * point. Only category, day and tags are categories or dates a reader filters on.
 */
function fixtureCsv(): string {
  const lines = ['category,code,city,comment,customer_id,constant,day,amount,tags,lat,lon'];
  for (let i = 0; i < ROWS; i++) {
    const comment = `${'A long remark written by hand about this record '.repeat(2)}${i % 3}`;
    const day = `2020-01-${String((i % 28) + 1).padStart(2, '0')}`;
    const tags = i % 2 ? 'red;blue' : 'green';
    const row = [`kind ${i % 5}`, `C${i}`, `town ${i % 120}`, comment, `c${i % 5}`, 'x', day];
    lines.push([...row, String(i * 1.5), tags, String(40 + i / 1000), String(2 + i / 1000)].join(','));
  }
  return `${lines.join('\n')}\n`;
}

/** The fields annotated as facets, in order. */
async function facetFields(portal: string, id: string): Promise<string[]> {
  const file = await readDatasetFile(portal, id);
  return file.fields.filter((f) => f.annotations.facet !== undefined).map((f) => f.name);
}

describe('ingest: automatic facets', () => {
  const temp = useTempPortal();
  let file: string;
  beforeEach(async () => {
    file = await fixture(temp.dir, 'orders.csv', fixtureCsv());
  });

  const base = () => ({ file, portal: temp.portal, id: 'orders', multivalued: { tags: ';' } });

  it('makes facets of categories and dates, never of ids, free text, numbers, constants or geo', async () => {
    await ingest(base());
    expect(await facetFields(temp.portal, 'orders')).to.deep.equal(['category', 'day', 'tags']);
    const dataset = await readDatasetFile(temp.portal, 'orders');
    expect(dataset.computed.auto_facets).to.deep.equal(['category', 'day', 'tags']);
    expect(dataset.fields.find((f) => f.name === 'category')!.annotations.facet).to.deep.equal([]);
    expect(dataset.fields.map((f) => f.type)).to.include('geo_point_2d');
    await ingest(base());
    const again = await readDatasetFile(temp.portal, 'orders');
    expect(again.computed.metadata_processed, 'unchanged: same dates').to.equal(
      dataset.computed.metadata_processed,
    );
  });

  it('takes the facets given instead, and none with autoFacets false', async () => {
    await ingest({ ...base(), facets: ['city'] });
    expect(await facetFields(temp.portal, 'orders')).to.deep.equal(['city']);
    expect((await readDatasetFile(temp.portal, 'orders')).computed.auto_facets).to.deep.equal([]);
    await ingest({ ...base(), id: 'bare', autoFacets: false });
    expect(await facetFields(temp.portal, 'bare')).to.deep.equal([]);
  });

  it('recomputes automatic facets on re-ingest, and keeps facets a previous version was given', async () => {
    await ingest(base());
    await ingest({ ...base(), autoFacets: false });
    expect(await facetFields(temp.portal, 'orders')).to.deep.equal([]);
    await ingest(base());
    expect(await facetFields(temp.portal, 'orders')).to.deep.equal(['category', 'day', 'tags']);
    await ingest({ ...base(), facets: ['city'] });
    await ingest(base());
    expect(await facetFields(temp.portal, 'orders')).to.deep.equal(['city']);
  });

  it('takes a facet annotation given in the field settings as a facet given', async () => {
    await ingest({ ...base(), fields: { city: { annotations: { facet: [] } } } });
    expect(await facetFields(temp.portal, 'orders')).to.deep.equal(['city']);
  });

  it('answers --no-auto-facets on the command line', async () => {
    await ingestCommand(file, temp.portal, 'cli', '--no-auto-facets');
    expect(await facetFields(temp.portal, 'cli')).to.deep.equal([]);
    await ingestCommand(file, temp.portal, 'cli2');
    expect(await facetFields(temp.portal, 'cli2')).to.deep.equal(['category', 'day', 'tags']);
  });
});

describe('ingest: what reads as a category', () => {
  const measure = (distinct: number, values: number, averageLength = 5) => ({
    distinct,
    values,
    averageLength,
  });

  it('takes up to 50 values at any size, or up to 5% of the rows', () => {
    expect(isCategory(measure(AUTO_FACET_RULES.maxDistinct, 100), 100)).to.equal(true);
    expect(isCategory(measure(51, 100), 100)).to.equal(false);
    expect(isCategory(measure(229, 3_000_000), 3_000_000)).to.equal(true);
    expect(isCategory(measure(50_001, 1_000_000), 1_000_000)).to.equal(false);
  });

  it('needs two values, a repeat, and short values', () => {
    expect(isCategory(measure(1, 100), 100)).to.equal(false);
    expect(isCategory(measure(10, 10), 10)).to.equal(false);
    expect(isCategory(measure(3, 100, 51), 100)).to.equal(false);
  });
});
