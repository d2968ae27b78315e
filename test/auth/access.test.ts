// Who sees what of a dataset: public to all, restricted to named users and groups, and an
// audience's hidden fields and row filter.
import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { datasetAccess } from '../../src/auth/access.js';
import { loadPortal, type Dataset } from '../../src/catalog/portal.js';
import type { Audience, DatasetFile } from '../../src/catalog/schema.js';
import { querySource } from '../../src/engine/dataset-source.js';
import { parseWhere } from '../../src/odsql/index.js';
import { DATASET_CHECKS } from '../../src/server/engines.js';
import { buildFixturePortal, restrictDataset } from '../helpers/fixture-portal.js';

const audience = (a: Partial<Audience>): Audience => ({
  users: [],
  groups: [],
  hidden_fields: [],
  row_filter: null,
  ...a,
});
const dataset = (visibility: 'public' | 'restricted', access: Audience[]) =>
  ({ id: 'd', file: { visibility, access } as unknown as DatasetFile }) as unknown as Dataset;
const alice = { keyId: 'k1', user: 'alice', groups: ['press'] };
const bob = { keyId: 'k2', user: 'bob', groups: [] };

describe('dataset access', () => {
  it('opens a public dataset to everyone, anonymous included', () => {
    expect(datasetAccess(dataset('public', []), null).dataVisible).to.equal(true);
    expect(datasetAccess(dataset('public', []), bob).hiddenFields.size).to.equal(0);
  });

  it('opens a restricted dataset only to the users and groups of an audience', () => {
    const restricted = dataset('restricted', [
      audience({ groups: ['press'] }),
      audience({ users: ['carol'] }),
    ]);
    expect(datasetAccess(restricted, alice).dataVisible).to.equal(true);
    expect(datasetAccess(restricted, bob).dataVisible).to.equal(false);
    expect(datasetAccess(restricted, null).dataVisible).to.equal(false);
    expect(datasetAccess(restricted, { keyId: 'k3', user: 'carol', groups: [] }).dataVisible).to.equal(true);
  });

  it('applies the first audience naming the caller: its hidden fields and row filter', () => {
    const narrowed = dataset('public', [
      audience({ users: ['alice'], row_filter: "origin = 'SFO'" }),
      audience({ users: ['*'], hidden_fields: ['delay'] }),
    ]);
    expect(datasetAccess(narrowed, alice)).to.deep.include({ rowFilter: "origin = 'SFO'" });
    expect(datasetAccess(narrowed, alice).hiddenFields.size).to.equal(0);
    expect([...datasetAccess(narrowed, null).hiddenFields]).to.deep.equal(['delay']);
    expect([...datasetAccess(narrowed, bob).hiddenFields]).to.deep.equal(['delay']);
  });

  it('parses each row filter once, when the dataset loads; one that does not parse keeps it unloaded', async () => {
    const dir = await buildFixturePortal();
    try {
      await restrictDataset(dir, 'towns', [
        { users: ['alice'], row_filter: "name = 'Lyon'" },
        { users: ['bob'], row_filter: "name = 'Lyon'" },
      ]);
      const towns = (await loadPortal(dir, DATASET_CHECKS)).datasets.get('towns')!;
      const condition = querySource(towns, datasetAccess(towns, alice)).rowFilter;
      expect(condition).to.deep.equal(parseWhere("name = 'Lyon'"));
      expect(querySource(towns, datasetAccess(towns, bob)).rowFilter).to.equal(condition);
      await restrictDataset(dir, 'towns', [{ users: ['alice'], row_filter: 'name = ' }]);
      const broken = await loadPortal(dir, DATASET_CHECKS);
      expect(broken.datasets.has('towns')).to.equal(false);
      expect(broken.problems.join('\n')).to.match(/towns\/dataset\.json: access\.0\.row_filter: .*where\./);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
