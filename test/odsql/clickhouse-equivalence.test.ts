// The same ODSQL gives the same answers from DuckDB and from a two-shard ClickHouse cluster: every
// entry of the held-in corpus (the golden pairs of test/odsql/golden/*.sql, errors aside, the
// where conditions of where-cases.ts, records by id) is compiled with each dialect over the odsql fixture, loaded into both engines, and run on each; ClickHouse is asked
// as the read-only user through the portal's HTTP client. An entry the ClickHouse dialect cannot
// spell must be refused with the clean 400 naming the engine; the test prints how many ran on both.
import { expect } from 'chai';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { QuerySource } from '../../src/odsql/source.js';
import { ClickHouseClient } from '../../src/engine/clickhouse/http-client.js';
import type { JsonValue } from '../../src/engine/engine.js';
import { clickhouseDialect } from '../../src/odsql/dialect/clickhouse/dialect.js';
import {
  compileQuery,
  QueryLangError,
  type Output,
  type OutputColumn,
  type QueryParams,
} from '../../src/odsql/index.js';
import {
  PORTAL_PASSWORD,
  PORTAL_USER,
  startClickHouseCluster,
  type ClickHouseCluster,
} from '../helpers/clickhouse-cluster.js';
import { writeDatasetFile } from '../helpers/clickhouse-fixture.js';
import { loadDataset } from '../helpers/clickhouse-load.js';
import { FIELDS, openFixture, SOURCE, type Fixture } from './fixture.js';
import { paramsOf, readCorpus } from './golden-corpus.js';
import { DATE_CASES, WHERE_CASES } from './where-cases.js';

const CLICKHOUSE_SOURCE: QuerySource = { ...SOURCE, dialect: clickhouseDialect };

/** One request of the corpus: a title, its parameters and its output. */
interface Case {
  readonly title: string;
  readonly params: QueryParams;
  readonly output: Output;
}

/**
 * The held-in corpus: the golden pairs that compile (test/odsql/golden/*.sql), the where
 * conditions executed on DuckDB (where-cases.ts), and single records by id, a hostile one included.
 */
function corpus(): Case[] {
  const golden = readCorpus()
    .filter(({ entry }) => !entry.expected.startsWith('ERROR'))
    .map(({ file, entry }) => ({
      title: `${file}: ${entry.parameters.map(([n, v]) => `${n}=${v}`).join('&')}`,
      ...paramsOf(entry),
    }));
  const where = [...WHERE_CASES, ...DATE_CASES].map(([condition, , timezone]) => ({
    title: `where-cases.ts: where=${condition}${timezone ? ` in ${timezone}` : ''}`,
    params: { select: 'n', where: [condition], ...(timezone ? { timezone } : {}) },
    output: 'json' as const,
  }));
  // Time zones across date buckets, date parts and the written instants; quantiles off the middle;
  // a bucket width ClickHouse cannot spell.
  const zoned: QueryParams[] = [
    { select: 'count(*)', groupBy: 'range(t, 1month)', timezone: 'Europe/Paris' },
    { select: 'count(*)', groupBy: 'range(t, 1d)', timezone: 'Asia/Tokyo' },
    { select: 'count(*)', groupBy: 'range(d, 1y)' },
    {
      select: 'count(*)',
      groupBy: "range(t, *, date'2020-03', date'2021', *)",
      timezone: 'America/New_York',
    },
    { select: 't, d, year(t), month(t), day(t), hour(t), minute(t)', timezone: 'Asia/Kolkata' },
    { select: 't', where: ["t >= '2020-06-30T20:00:00-04:00'"], timezone: 'Europe/Paris' },
    { select: 'median(n), percentile(x, 10), percentile(n, 99.5), percentile(x, 0)' },
    { select: 'count(*)', groupBy: 'range(t, 2d)' },
    // An output named like a field it does not hold: the conditions still read the field.
    { select: 'count(*) as n', where: ['n > 5'] },
    { select: 'upper(name) as name, x * 2 as x', where: ["startswith(name, 'a')", 'x > 1'], orderBy: 'x' },
    // A list grouped by its elements and filtered on itself: the filter reads the list (was a 500:
    // the element's alias replaced the list in the WHERE beside it).
    { select: 'count(*)', groupBy: 'tags', where: ["tags = 'red'"] },
    // A double negation (was a 500: 18.16 forwarded -(-n) to the shards as --n, a comment).
    { select: '--n as m, -(-x) is null as z', orderBy: 'm' },
    // A negation compared (was a 500: 18.16 forwarded a <> (NOT b) to the shards as a != NOT b).
    { select: "n, x is null <> not (name = 'a') as c", orderBy: "x is null <> not (name = 'a'), n" },
    {
      select: 'n',
      where: ["(x > 1) = geometry(p, geom'POLYGON((2 48, 3 48, 3 49, 2 49, 2 48))', DISJOINT)"],
      orderBy: 'n',
    },
  ];
  const zonedCases = zoned.map((params) => ({
    title: `extra: ${JSON.stringify(params)}`,
    params,
    output: 'json' as const,
  }));
  const records = ['r5', "r5' OR 1=1 --", 'r3\\'].map((recordId) => ({
    title: `record ${recordId}`,
    params: { select: '*', recordId },
    output: 'json' as const,
  }));
  return [...golden, ...where, ...zonedCases, ...records];
}

const REFUSAL = /^(.+) is not available on this dataset's engine \(ClickHouse\)$/;

/** The fixture's Parquet as a dataset folder (data.parquet and dataset.json) for the loader. */
async function fixtureDataset(fixture: Fixture, dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  await copyFile(path.join(fixture.dir, 'things.parquet'), path.join(dir, 'data.parquet'));
  await writeDatasetFile(dir, { id: 'things', title: 'Things', fields: FIELDS, records: 6 });
  return dir;
}

/**
 * A value as the portal serves it, from either engine. ClickHouse's JSON writes what the
 * ClickHouse engine reads back into the API's shapes: a boolean's Enum8 text, a JSON blob's stored
 * text, and an empty list, its null (its client reads points and presented shapes already).
 * Doubles are compared apart (within 1e-9 relative).
 */
function served(value: JsonValue, column: OutputColumn, output: string): JsonValue {
  if (value === null) return null;
  if (output === 'native') return stored(value, column);
  if (column.multivalued && Array.isArray(value) && value.length === 0) return null;
  if (column.type === 'boolean' && typeof value === 'string') return value === 'true';
  if (column.type === 'json_blob' && output === 'json' && typeof value === 'string') {
    return parseOrNull(value) ?? value;
  }
  return value;
}

/**
 * A stored value of the native output (what Parquet and Arrow exports write), read from either
 * engine's JSON: an instant as its ISO text (DuckDB writes '+00', ClickHouse a UTC wall clock), a
 * boolean from ClickHouse's UInt8.
 */
function stored(value: JsonValue, column: OutputColumn): JsonValue {
  if (column.type === 'boolean' && typeof value === 'number') return value === 1;
  if (column.type === 'datetime' && typeof value === 'string') {
    const iso = value.replace(' ', 'T').replace(/\+00$/, '');
    return new Date(`${iso}Z`).toISOString();
  }
  if (column.multivalued && Array.isArray(value) && value.length === 0) return null;
  return value;
}

function parseOrNull(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return null;
  }
}

/** Whether two answers agree: doubles within 1e-9 relative, everything else equal. */
function agree(a: JsonValue, b: JsonValue): boolean {
  if (typeof a === 'number' && typeof b === 'number') {
    return a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
  }
  return JSON.stringify(a) === JSON.stringify(b);
}

describe('ClickHouse answers the held-in ODSQL corpus as DuckDB does (two shards)', function () {
  this.timeout(180_000);
  let dir: string;
  let fixture: Fixture;
  let cluster: ClickHouseCluster;
  let client: ClickHouseClient;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-equivalence-'));
    fixture = await openFixture({ asIngested: true });
    cluster = await startClickHouseCluster(path.join(dir, 'cluster'));
    const loaded = await loadDataset(
      cluster,
      await fixtureDataset(fixture, path.join(dir, 'things')),
      SOURCE.table,
    );
    expect(loaded.rows).to.equal(6);
    client = new ClickHouseClient({
      url: cluster.shards[0]!.url,
      user: PORTAL_USER,
      password: PORTAL_PASSWORD,
    });
  });
  after(async () => {
    await cluster?.stop();
    await fixture?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('gives equal rows and counts for every entry ClickHouse can spell, and a 400 for the others', async () => {
    const cases = corpus();
    const refused = new Map<string, number>();
    const differences: string[] = [];
    let both = 0;
    for (const { title, params, output } of cases) {
      let compiled;
      try {
        compiled = compileQuery(CLICKHOUSE_SOURCE, params, output);
      } catch (error) {
        const feature = error instanceof QueryLangError ? REFUSAL.exec(error.problem)?.[1] : undefined;
        if (feature === undefined) throw error;
        refused.set(feature, (refused.get(feature) ?? 0) + 1);
        continue;
      }
      const columns = compiled.columns;
      const sql = compiled.sql;
      const answers = await Promise.all([
        fixture.rows(params, output),
        client.queryJson(sql),
        client.queryJson(compiled.countSql),
      ]).catch(async (error: unknown) => {
        // ClickHouse's own words, which the portal's client keeps to itself, for the report.
        const why = await cluster.admin(`${sql} FORMAT JSON`).then(
          () => String(error),
          (e: unknown) => String(e).slice(0, 300),
        );
        differences.push(`${title}\n  failed: ${why}\n  SQL: ${sql}`);
        return null;
      });
      if (answers === null) continue;
      const [duckdb, clickhouse, [count]] = answers;
      const shape = (rows: Record<string, JsonValue>[]) =>
        rows.map((row) => columns.map((c) => served(row[c.key] ?? null, c, output)));
      const [left, right] = [shape(duckdb), shape(clickhouse)];
      const equal =
        left.length === right.length && left.every((row, i) => row.every((v, j) => agree(v, right[i]![j]!)));
      if (!equal) {
        differences.push(
          `${title}\n  DuckDB:     ${JSON.stringify(left)}\n  ClickHouse: ${JSON.stringify(right)}\n  SQL: ${sql}`,
        );
      }
      const duckdbCount = await fixture.count(params);
      if (Number(count?.total_count) !== duckdbCount) {
        differences.push(
          `${title}\n  count: DuckDB ${duckdbCount}, ClickHouse ${JSON.stringify(count?.total_count)}`,
        );
      }
      both++;
    }
    const reasons = [...refused].map(([feature, n]) => `${feature} (${n})`).join(', ');
    console.log(
      `      ClickHouse equivalence: ${both} of ${cases.length} corpus entries ran on both engines; refused: ${reasons}`,
    );
    expect(differences, differences.join('\n')).to.deep.equal([]);
    expect(both).to.be.greaterThan(cases.length / 2);
  });
});
