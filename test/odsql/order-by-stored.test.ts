// order_by on a field sorts its stored value, not the text the select writes under the same name:
// a datetime written in a zone with DST reads out of order across the autumn change of offset.
import { expect } from 'chai';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { QuerySource } from '../../src/odsql/source.js';
import { compileQuery, type QueryParams } from '../../src/odsql/index.js';
import { field } from './fixture.js';

const SOURCE: QuerySource = {
  table: 'clock',
  searchTable: null,
  fields: [field('label', 'text'), field('t', 'datetime')],
};

/**
 * Paris left summer time at 01:00 UTC on 2021-10-31: 00:30 UTC is 02:30+02:00, and 01:15 UTC,
 * 45 minutes later, is 02:15+01:00, whose text sorts first. Stored in the opposite order, so that
 * the storage order (the tie-breaker) cannot pass for the right answer.
 */
const ROWS = `SELECT * FROM (VALUES
  ('later', TIMESTAMPTZ '2021-10-31 01:15:00+00', 1),
  ('earlier', TIMESTAMPTZ '2021-10-31 00:30:00+00', 2),
  ('first', TIMESTAMPTZ '2021-10-30 12:00:00+00', 3)
) AS v(label, t, _ordinal)`;

/** A node of DuckDB's JSON plan (EXPLAIN (FORMAT json)). */
interface PlanNode {
  readonly name: string;
  readonly children?: readonly PlanNode[];
}

/** The first node named `name` in a plan, depth first. */
function findNode(nodes: readonly PlanNode[], name: string): PlanNode | undefined {
  for (const node of nodes) {
    const found = node.name === name ? node : findNode(node.children ?? [], name);
    if (found) return found;
  }
  return undefined;
}

describe('order_by on a field sorts the stored value', () => {
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;
  before(async () => {
    instance = await DuckDBInstance.create(':memory:');
    connection = await instance.connect();
    await connection.run(`CREATE TABLE clock AS ${ROWS}`);
  });
  after(() => {
    connection.closeSync();
    instance.closeSync();
  });

  const rows = async (params: QueryParams): Promise<Record<string, unknown>[]> => {
    const compiled = compileQuery(SOURCE, params);
    return (await connection.runAndReadAll(compiled.sql)).getRowObjectsJson();
  };

  it('a datetime in Europe/Paris sorts by instant across the autumn change, both ways', async () => {
    const ascending = await rows({ orderBy: 't', timezone: 'Europe/Paris' });
    expect(ascending.map((r) => r.label)).to.deep.equal(['first', 'earlier', 'later']);
    expect(ascending.map((r) => r.t)).to.deep.equal([
      '2021-10-30T14:00:00+02:00',
      '2021-10-31T02:30:00+02:00',
      '2021-10-31T02:15:00+01:00',
    ]);
    const descending = await rows({ orderBy: '-t', timezone: 'Europe/Paris' });
    expect(descending.map((r) => r.label)).to.deep.equal(['later', 'earlier', 'first']);
  });

  it('the page of a filter on the sort key keeps the top-N of the stored column', async () => {
    const { sql } = compileQuery(SOURCE, { where: ["label != 'first'"], orderBy: 't', limit: 1 });
    expect(sql).to.match(/ORDER BY "clock"\."t" ASC NULLS LAST, "_ordinal" ASC LIMIT 1$/);
    // DuckDB's top-N, over the stored instants: no text written for rows that are not on the page.
    const [explained] = (await connection.runAndReadAll(`EXPLAIN (FORMAT json) ${sql}`)).getRows();
    const topN = findNode(JSON.parse(String(explained?.[1])) as PlanNode[], 'TOP_N');
    expect(topN, 'a TOP_N in the plan').to.not.equal(undefined);
    expect(JSON.stringify(topN)).to.not.include('strftime');
    const [row] = await rows({
      where: ["label != 'first'"],
      orderBy: 't',
      limit: 1,
      timezone: 'Europe/Paris',
    });
    expect(row?.label).to.equal('earlier');
  });
});
