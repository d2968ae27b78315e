// v2.0's technical fields in every clause (supplement 7): records' datasetid, recordid and
// record_timestamp in select, where, group_by and order_by, checked against DuckDB over the same
// Parquet rows, and in exports and facets; record_size refused by name; the catalog's dataset_id, modified and records_count;
// v2.1, which has none of them, still answering `Unknown field`; a real field of the name first.
import { expect } from 'chai';
import { useSampleSuite } from '../../helpers/sample-portal.js';
import { compileQuery } from '../../../src/odsql/index.js';
import { clickhouseDialect } from '../../../src/odsql/dialect/clickhouse/dialect.js';
import { v20RecordFields } from '../../../src/odsql/technical.js';
import { field } from '../../odsql/fixture.js';

const V20 = '/api/v2';
const V21 = '/api/explore/v2.1';

interface V20Record {
  record: { id: string | null; timestamp: string; fields: Record<string, unknown> };
}

describe('v2.0 technical fields (sample portal)', () => {
  const suite = useSampleSuite();

  const get = (path: string, params: Record<string, string>) =>
    suite.server.json(`${path}?${new URLSearchParams(params).toString()}`);
  const records = (params: Record<string, string>) => get(`${V20}/catalog/datasets/airports/records`, params);
  const aggregates = (params: Record<string, string>) =>
    get(`${V20}/catalog/datasets/airports/aggregates`, params);
  const reference = (sql: string) => suite.reference.rows(sql);
  const count = async (where = 'true') =>
    Number((await reference(`SELECT count(*)::INTEGER AS n FROM airports WHERE ${where}`))[0]!.n);

  it('select: datasetid, recordid and record_timestamp are the record id, dataset and timestamp', async () => {
    const answer = await records({
      select: 'iata, datasetid, recordid, record_timestamp',
      where: 'state = "CA"',
      order_by: 'iata',
      limit: '5',
    });
    expect(answer.status).to.equal(200);
    const expected = await reference(
      `SELECT iata, _recordid FROM airports WHERE state = 'CA' ORDER BY iata LIMIT 5`,
    );
    const got = (answer.body.records as V20Record[]).map(({ record }) => record);
    expect(got.map((r) => [r.fields.iata, r.fields.recordid])).to.deep.equal(
      expected.map((r) => [r.iata, r._recordid]),
    );
    for (const r of got) {
      expect(r.fields.recordid).to.equal(r.id);
      expect(r.fields.datasetid).to.equal('airports');
      expect(r.fields.record_timestamp).to.equal(r.timestamp);
    }
  });

  it('where: each technical field filters as its value', async () => {
    const [one] = await reference(`SELECT _recordid, iata FROM airports ORDER BY iata LIMIT 1`);
    const byId = await records({ where: `recordid = "${String(one!._recordid)}"`, select: 'iata' });
    expect(byId.body.total_count).to.equal(1);
    expect(byId.body.records[0].record.fields).to.deep.equal({ iata: one!.iata });
    const all = await count();
    const totals = async (where: string) => (await records({ where, limit: '0' })).body.total_count;
    expect(await totals('datasetid = "airports"')).to.equal(all);
    expect(await totals('datasetid = "movies"')).to.equal(0);
    expect(await totals("record_timestamp >= date'2000'")).to.equal(all);
    expect(await totals("record_timestamp < date'2000'")).to.equal(0);
    expect(await totals('recordid > "8" and state = "TX"')).to.equal(
      await count(`_recordid > '8' AND state = 'TX'`),
    );
  });

  it('group_by: a constant field is one group, recordid one group per record', async () => {
    const all = await count();
    const byDataset = await aggregates({ select: 'datasetid, count(*) as n', group_by: 'datasetid' });
    expect(byDataset.body.aggregations).to.deep.equal([{ datasetid: 'airports', n: all }]);
    const byTime = await aggregates({ select: 'count(*) as n', group_by: 'record_timestamp' });
    expect(byTime.body.aggregations).to.have.length(1);
    expect(byTime.body.aggregations[0].n).to.equal(all);
    const perRecord = await aggregates({
      select: 'count(*) as n',
      group_by: 'recordid',
      where: 'state = "CA"',
    });
    expect(perRecord.body.aggregations).to.have.length(await count(`state = 'CA'`));
    expect(perRecord.body.aggregations.every((g: { n: number }) => g.n === 1)).to.equal(true);
  });

  it('order_by: recordid sorts by the record id, ascending and descending', async () => {
    for (const direction of ['asc', 'desc']) {
      const answer = await records({ select: 'iata', order_by: `recordid ${direction}`, limit: '10' });
      const expected = await reference(
        `SELECT _recordid FROM airports ORDER BY _recordid ${direction} LIMIT 10`,
      );
      const ids = (answer.body.records as V20Record[]).map(({ record }) => record.id);
      expect(ids).to.deep.equal(expected.map((r) => r._recordid));
    }
    const byConstant = await records({
      select: 'iata',
      order_by: 'datasetid, record_timestamp desc, iata',
      limit: '3',
    });
    const expected = await reference(`SELECT iata FROM airports ORDER BY iata LIMIT 3`);
    expect((byConstant.body.records as V20Record[]).map(({ record }) => record.fields)).to.deep.equal(
      expected,
    );
  });

  it('exports and facets of v2.0 read them too; v2.1 exports do not', async () => {
    const params = {
      select: 'iata, recordid',
      where: 'datasetid = "airports" and state = "CA"',
      order_by: 'recordid desc',
      limit: '3',
    };
    const exported = await suite.server.get(
      `${V20}/catalog/datasets/airports/exports/json?${new URLSearchParams(params).toString()}`,
    );
    expect(await exported.json()).to.deep.equal(
      await reference(
        `SELECT iata, _recordid AS recordid FROM airports WHERE state = 'CA' ORDER BY _recordid DESC LIMIT 3`,
      ),
    );
    const v21 = await get(`${V21}/catalog/datasets/airports/exports/json`, params);
    expect(v21.status).to.equal(400);
    const [one] = await reference(`SELECT _recordid, state FROM airports ORDER BY iata LIMIT 1`);
    const facets = await get(`${V20}/catalog/datasets/airports/facets`, {
      where: `recordid = "${String(one!._recordid)}"`,
      facet: 'state',
    });
    expect(facets.status).to.equal(200);
    const state = facets.body.facets.find((f: { name: string }) => f.name === 'state');
    expect(state.facets.map((v: { value: string; count: number }) => [v.value, v.count])).to.deep.equal([
      [one!.state, 1],
    ]);
  });

  it('record_size is refused with the reason, in every clause', async () => {
    for (const params of <Record<string, string>[]>[
      { select: 'record_size' },
      { where: 'record_size > 10' },
      { group_by: 'record_size' },
      { order_by: 'record_size' },
    ]) {
      const answer = await records(params);
      expect(answer.status).to.equal(400);
      expect(answer.body.message).to.contain('record_size cannot be queried: record.size counts the bytes');
    }
  });

  it('v2.1 has no technical fields: Unknown field', async () => {
    for (const name of ['datasetid', 'recordid', 'record_timestamp', 'record_size']) {
      for (const clause of ['select', 'where', 'group_by', 'order_by']) {
        const value = clause === 'where' ? `${name} is not null` : name;
        const answer = await get(`${V21}/catalog/datasets/airports/records`, { [clause]: value });
        expect(answer.status, `${clause}=${value}`).to.equal(400);
        expect(answer.body.message).to.contain(`Unknown field: ${name}`);
      }
    }
  });

  it("the catalog's dataset_id, modified and records_count in every clause, v2.0 and v2.1", async () => {
    const counts = await reference(`SELECT count(*)::INTEGER AS n FROM airports`);
    for (const path of [`${V20}/catalog/aggregates`, `${V21}/catalog/datasets`]) {
      const answer = await get(path, {
        select: 'dataset_id, records_count, modified',
        where: 'dataset_id = "airports" and records_count > 0 and modified is not null',
        group_by: 'dataset_id, records_count, modified',
        order_by: 'records_count desc, dataset_id',
      });
      expect(answer.status, path).to.equal(200);
      const rows = path.startsWith(V20) ? answer.body.aggregations : answer.body.results;
      expect(rows).to.have.length(1);
      expect(rows[0].dataset_id).to.equal('airports');
      expect(rows[0].records_count).to.equal(counts[0]!.n);
    }
  });

  it("a dataset's own field of a technical name is that field", () => {
    const source = {
      table: 't',
      searchTable: null,
      fields: [field('datasetid', 'text'), field('n', 'int')],
      technical: v20RecordFields('t', '2024-01-02T03:04:05.678+00:00'),
    };
    const { sql } = compileQuery(source, { select: 'datasetid, recordid, record_timestamp' });
    expect(sql).to.contain('"datasetid"');
    expect(sql).to.contain('"_recordid"');
    expect(sql).to.contain("TIMESTAMPTZ '2024-01-02");
    expect(sql).to.not.contain("'t' AS");
    const clickhouse = compileQuery(
      { ...source, dialect: clickhouseDialect },
      { select: 'n, recordid', where: ["record_timestamp > date'2020' and datasetid = 't'"] },
    );
    // ClickHouse keeps no fraction of a second in a literal: the processing time to the second.
    expect(clickhouse.sql).to.contain("toDateTime('2024-01-02 03:04:05', 'UTC')");
  });
});
