// The registry of engine kinds (src/engine/kinds.ts): each kind's name is its dialect's, and a
// source naming no dialect is compiled in the local kind's.
import { expect } from 'chai';
import { ATTACHED_KINDS, LOCAL_KIND } from '../../src/engine/kinds.js';
import { compileQuery } from '../../src/odsql/index.js';
import { SOURCE } from '../odsql/fixture.js';

describe('engine kinds', () => {
  it('name each kind as its dialect, and each attached kind by the name dataset.json gives', () => {
    expect(LOCAL_KIND.dialect.name).to.equal(LOCAL_KIND.name);
    for (const [name, kind] of Object.entries(ATTACHED_KINDS)) {
      expect(kind.name).to.equal(name);
      expect(kind.dialect.name).to.equal(name);
    }
  });

  it("compile a source naming no dialect in the local kind's", () => {
    const params = { where: ["name = 'a'"], groupBy: 'name', select: 'count(*)' };
    const local = { ...SOURCE, dialect: LOCAL_KIND.dialect };
    expect(compileQuery(SOURCE, params).sql).to.equal(compileQuery(local, params).sql);
    expect(compileQuery(SOURCE, params).sql).to.not.equal(
      compileQuery({ ...SOURCE, dialect: ATTACHED_KINDS.clickhouse.dialect }, params).sql,
    );
  });
});
