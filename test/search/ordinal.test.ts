// The dataset view's hidden ordinal: search through the index picks rows by their position in
// data.parquet, and a field named like Parquet's file_row_number column is served as it is.
import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ingest } from '../../src/ingest/ingest.js';
import { startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';

const RECORDS = '/api/explore/v2.1/catalog/datasets';

describe('search by ordinal', () => {
  let server: TestServer;

  before(async () => {
    server = await startFixtureServer(async (dir) => {
      const rows = ['name,file_row_number', 'alpha river,7', 'beta lake,8', 'alpha lake,9'];
      for (let i = 0; i < 3000; i++) rows.push(`gamma ${i},${i * 10}`);
      const csv = path.join(dir, 'rows.csv');
      await writeFile(csv, `${rows.join('\n')}\n`);
      await ingest({ file: csv, portal: dir, id: 'numbered' });
      const plain = path.join(dir, 'plain.csv');
      await writeFile(plain, `${rows.map((r) => r.split(',')[0]).join('\n')}\n`);
      await ingest({ file: plain, portal: dir, id: 'plain' });
    });
  });
  after(() => server.close());

  const names = async (dataset: string, where: string): Promise<string[]> => {
    const query = new URLSearchParams({ where, select: 'name', order_by: 'name', limit: '100' });
    const { status, body } = await server.json(`${RECORDS}/${dataset}/records?${query.toString()}`);
    expect(status).to.equal(200);
    return (body.results as { name: string }[]).map((r) => r.name);
  };

  it('finds the records of every term through the index, past the first row group', async () => {
    expect(await names('plain', 'search(name, "alpha lake")')).to.deep.equal(['alpha lake']);
    expect(await names('plain', 'search(name, "gamma 2999")')).to.deep.equal(['gamma 2999']);
    expect(await names('plain', '"lake"')).to.deep.equal(['alpha lake', 'beta lake']);
  });

  it('serves a field named file_row_number with its own values, and searches it by scanning', async () => {
    const { body } = await server.json(`${RECORDS}/numbered/records?where=name%3D%22beta%20lake%22`);
    expect(body.results).to.deep.equal([{ name: 'beta lake', file_row_number: 8 }]);
    expect(await names('numbered', 'search(name, "alpha lake")')).to.deep.equal(['alpha lake']);
    expect(await names('numbered', 'search(name, "gamma 2999")')).to.deep.equal(['gamma 2999']);
  });
});
