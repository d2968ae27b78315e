// Name resolution: catalog template names, case, back quotes, and which of a field or a label a name means.
import { expect } from 'chai';
import type { QuerySource } from '../../src/odsql/source.js';
import { compileQuery, type QueryParams } from '../../src/odsql/index.js';
import { field, openFixture, type Fixture } from './fixture.js';

/** A source shaped like the catalog table: default metas bare, other templates as `template.name`. */
const CATALOG: QuerySource = {
  table: '_catalog',
  searchTable: null,
  fields: [
    field('title', 'text'),
    field('modified', 'datetime'),
    field('dcat.created', 'text'),
    field('records_count', 'int'),
  ],
};

const whereSql = (source: QuerySource, where: string): string => {
  const { sql } = compileQuery(source, { select: 'records_count', where: [where] });
  return sql.slice(sql.indexOf(' WHERE ') + 7);
};

describe('ODSQL names', () => {
  it('catalog metas: `default.` is optional, other templates are dotted names', () => {
    expect(whereSql(CATALOG, "default.title = 'x'")).to.equal(`("title" = 'x')`);
    expect(whereSql(CATALOG, "title = 'x'")).to.equal(`("title" = 'x')`);
    expect(whereSql(CATALOG, "dcat.created = 'x'")).to.equal(`("dcat.created" = 'x')`);
    expect(whereSql(CATALOG, "`dcat.created` = 'x'")).to.equal(`("dcat.created" = 'x')`);
  });

  it('field names ignore case when nothing matches exactly; keys use the field name', () => {
    expect(whereSql(CATALOG, 'Records_Count > 1')).to.equal(`("records_count" > 1)`);
    const { columns } = compileQuery(CATALOG, { select: 'TITLE, default.title as t' });
    expect(columns.map((c) => c.key)).to.deep.equal(['title', 't']);
  });

  describe('fields or labels, on the fixture', () => {
    let fixture: Fixture;
    before(async () => {
      fixture = await openFixture();
    });
    after(async () => fixture.close());

    const run = (params: QueryParams) => fixture.rows(params);

    it('where: a field wins over a select label of the same name', async () => {
      const rows = await run({ select: 'lower(name) as name', where: ["name = 'Alpha'"] });
      expect(rows).to.deep.equal([{ name: 'alpha' }]);
    });

    it('order_by: a select label wins over a field of the same name', async () => {
      const rows = await run({ select: '-n as n', where: ['n is not null'], orderBy: 'n' });
      expect(rows.map((r) => r.n)).to.deep.equal([-100, -50, -25, -10, -1]);
    });

    it('select: a group_by label wins, so a grouped expression can keep the field name', async () => {
      const rows = await run({
        groupBy: 'lower(name) as name',
        select: 'name, count(*) as c',
        where: ["name like 'alpha'"],
      });
      expect(rows).to.deep.equal([
        { name: 'alpha', c: 1 },
        { name: 'alphabet', c: 1 },
      ]);
    });

    it('group_by may name a select label, and select a group_by label', async () => {
      const bySelectLabel = await run({
        select: 'year(d) as y, count(*) as c',
        groupBy: 'y',
        where: ['d is not null'],
      });
      expect(bySelectLabel).to.deep.equal([
        { y: 2019, c: 1 },
        { y: 2020, c: 3 },
        { y: 2021, c: 1 },
      ]);
    });

    it('a reserved word as a field name, back-quoted; a string compared with a boolean', async () => {
      expect(await run({ select: '`year`', where: ["ok = 'TRUE'"], orderBy: 'n' })).to.deep.equal([
        { year: 2020 },
        { year: 2020 },
      ]);
    });
  });
});
