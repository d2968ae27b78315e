// The registry of engine kinds (src/engine/kinds.ts): each kind's name is its dialect's, a source
// naming no dialect is compiled in the local kind's, and a dataset naming a kind the registry does
// not have is not served.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadPortal } from '../../src/catalog/portal.js';
import { DATASET_CHECKS } from '../../src/server/engines.js';
import { SAMPLE_PORTAL } from '../helpers/sample-portal.js';
import { ATTACHED_KINDS, LOCAL_KIND } from '../../src/engine/kinds.js';
import { compileQuery } from '../../src/odsql/index.js';
import { SOURCE } from '../odsql/fixture.js';

describe('engine kinds', () => {
  it('name each kind as its dialect, and each attached kind by the name dataset.json gives', () => {
    expect(LOCAL_KIND.dialect.name).to.equal(LOCAL_KIND.name);
    for (const [name, kind] of ATTACHED_KINDS) {
      expect(kind.name).to.equal(name);
      expect(kind.dialect.name).to.equal(name);
    }
  });

  it("compile a source naming no dialect in the local kind's", () => {
    const params = { where: ["name = 'a'"], groupBy: 'name', select: 'count(*)' };
    const local = { ...SOURCE, dialect: LOCAL_KIND.dialect };
    expect(compileQuery(SOURCE, params).sql).to.equal(compileQuery(local, params).sql);
    expect(compileQuery(SOURCE, params).sql).to.not.equal(
      compileQuery({ ...SOURCE, dialect: ATTACHED_KINDS.get('clickhouse')!.dialect }, params).sql,
    );
  });
});

describe('a dataset naming an engine kind', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kinds-'));
    await writeFile(path.join(dir, 'portal.json'), JSON.stringify({ title: 'kinds' }));
    const file = JSON.parse(
      await readFile(path.join(SAMPLE_PORTAL, 'datasets/airports/dataset.json'), 'utf8'),
    );
    for (const [id, kind] of [
      ['on-clickhouse', 'clickhouse'],
      ['on-postgres', 'postgres'],
    ]) {
      await mkdir(path.join(dir, 'datasets', id!), { recursive: true });
      const engine = { kind, url: 'http://127.0.0.1:8123', table: 'flights' };
      await writeFile(path.join(dir, 'datasets', id!, 'dataset.json'), JSON.stringify({ ...file, engine }));
    }
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('is served when the registry has the kind, and refused with the kinds it has when not', async () => {
    const portal = await loadPortal(dir, DATASET_CHECKS);
    expect([...portal.datasets.keys()]).to.deep.equal(['on-clickhouse']);
    expect(portal.problems).to.deep.equal([
      `${path.join(dir, 'datasets/on-postgres/dataset.json')}: engine.kind: no engine named "postgres" (kinds: clickhouse)`,
    ]);
  });
});
