// The CompiledQuery contract: output columns, the grouped flag, count queries and paging clauses.
import { expect } from 'chai';
import { compileQuery } from '../../src/odsql/index.js';
import { SOURCE } from './fixture.js';

describe('ODSQL compiled query', () => {
  it('columns of select=*: every field with its type and whether it is a list', () => {
    const { columns, grouped, params, countParams } = compileQuery(SOURCE, {});
    expect(columns.map((c) => [c.key, c.type, c.multivalued])).to.deep.equal([
      ['name', 'text', false],
      ['n', 'int', false],
      ['x', 'double', false],
      ['ok', 'boolean', false],
      ['d', 'date', false],
      ['t', 'datetime', false],
      ['p', 'geo_point_2d', false],
      ['s', 'geo_shape', false],
      ['tags', 'text', true],
      ['j', 'json_blob', false],
      ['year', 'int', false],
    ]);
    expect(grouped).to.equal(false);
    expect(params).to.deep.equal([]);
    expect(countParams).to.deep.equal([]);
  });

  it('columns of expressions, aggregations and groups; a multivalued group key is a single value', () => {
    const { columns, grouped } = compileQuery(SOURCE, {
      groupBy: 'tags, range(n, 10) as r, geo_cluster(p, 4)',
      select: 'count(*), avg(n), max(d), min(name)',
    });
    expect(columns.map((c) => [c.key, c.type, c.multivalued])).to.deep.equal([
      ['tags', 'text', false],
      ['r', 'text', false],
      ['geo_cluster(p, 4)', 'json', false],
      ['count(*)', 'int', false],
      ['avg(n)', 'double', false],
      ['max(d)', 'date', false],
      ['min(name)', 'text', false],
    ]);
    expect(grouped).to.equal(true);
  });

  it('json_format() is text in native output', () => {
    const { columns } = compileQuery(SOURCE, { select: 'json_format(j)' }, 'native');
    expect(columns[0]).to.deep.equal({ key: 'json_format(j)', type: 'text', multivalued: false });
  });

  it('count queries: records, groups, or the one group of an aggregated select', () => {
    expect(compileQuery(SOURCE, { where: ['n > 1'] }).countSql).to.equal(
      'SELECT count(*) AS total_count FROM "things" WHERE ("n" > 1)',
    );
    expect(compileQuery(SOURCE, { groupBy: 'ok' }).countSql).to.equal(
      'SELECT count(*) AS total_count FROM (SELECT 1 FROM "things" GROUP BY "ok") AS "groups"',
    );
    expect(compileQuery(SOURCE, { select: 'count(*)' }).countSql).to.equal('SELECT 1 AS total_count');
  });

  it('records come in storage order without order_by (no sort is paid for a page)', () => {
    expect(compileQuery(SOURCE, { select: 'n', limit: 10 }).sql).to.equal(
      'SELECT "n" AS "n" FROM "things" LIMIT 10',
    );
  });

  it('limit and offset must be integers (the API validates them first)', () => {
    expect(() => compileQuery(SOURCE, { limit: 1.5 })).to.throw(RangeError);
    expect(() => compileQuery(SOURCE, { offset: -1 })).to.throw(RangeError);
    expect(compileQuery(SOURCE, { select: 'n', limit: null, offset: 0 }).sql).to.equal(
      'SELECT "n" AS "n" FROM "things"',
    );
  });

  it('time zones: Intl names and their aliases, canonicalized; offsets refused', () => {
    expect(compileQuery(SOURCE, { select: 't', timezone: 'Asia/Kolkata' }).sql).to.include("'Asia/Calcutta'");
    expect(compileQuery(SOURCE, { select: 't', timezone: 'Etc/UTC' }).sql).to.equal(
      compileQuery(SOURCE, { select: 't', timezone: 'UTC' }).sql,
    );
    expect(() => compileQuery(SOURCE, { timezone: '+01:00' })).to.throw('Unknown timezone: +01:00');
  });
});
