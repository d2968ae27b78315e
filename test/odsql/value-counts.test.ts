// Queries of one field answered from its table of value counts (src/odsql/value-counts.ts): random
// counts and groupings of one field of the sample datasets answer the same JSON over the tables
// as over the rows; the tables are not read where they cannot answer exactly; and the HTTP answers
// of the sample flights are those of the rows.
import { expect } from 'chai';
import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { querySource } from '../../src/engine/dataset-source.js';
import { loadPortal, valueCountsPath, valueCountsViewName, type Dataset } from '../../src/catalog/portal.js';
import type { QuerySource } from '../../src/odsql/source.js';
import { DuckDBEngine } from '../../src/engine/duckdb/engine.js';
import { enumerateFacets, type FacetQuery } from '../../src/facets/enumerate.js';
import { facetSelection } from '../../src/facets/facet-selection.js';
import { countedFields, writeCountTables } from '../../src/ingest/value-counts.js';
import { compileQuery, facetReadsValueCounts, parseWhere, type QueryParams } from '../../src/odsql/index.js';
import { DATASET_CHECKS } from '../../src/server/engines.js';
import { SAMPLE_PORTAL, useSampleSuite } from '../helpers/sample-portal.js';

/** A sample dataset served with the views of its tables of value counts, and its fields' values. */
interface Served {
  readonly dataset: Dataset;
  readonly source: QuerySource;
  /** Some values of each field with a table, as ODSQL literals. */
  readonly literals: ReadonlyMap<string, readonly string[]>;
}

const DATE_LIKE = new Set(['date', 'datetime']);

/** A value read as JSON from DuckDB, written as an ODSQL literal of a field of `type`. */
function literal(value: unknown, type: string): string {
  if (DATE_LIKE.has(type)) return `date'${String(value).replace(' ', 'T')}'`;
  if (typeof value === 'string') return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  return String(value);
}

/** Conditions on field `f` of `type`, from two of its values. */
function conditions(f: string, type: string, [a, b]: readonly string[]): string[] {
  const common = [
    `${f} = ${a}`,
    `${f} != ${a}`,
    `${f} > ${a}`,
    `${f} <= ${b}`,
    `${f} in (${a}, ${b})`,
    `${f} in [${a}..${b}]`,
    `${f} is null`,
    `${f} is not null`,
    `not ${f} = ${b}`,
    `${f} = ${a} or ${f} = ${b}`,
  ];
  if (DATE_LIKE.has(type))
    return [...common, `year(${f}) = 2001`, `month(${f}) >= 3`, `${f} < date'2001-02'`, `day(${f}) = 15`];
  if (type === 'text') return [...common, `lower(${f}) = lower(${a})`, `${f} like 'S'`];
  return [...common, `${f} * 2 > ${a}`];
}

/** Group keys of field `f` of `type`. */
function groupKeys(f: string, type: string): string[] {
  if (type === 'datetime')
    return [f, `year(${f})`, `month(${f})`, `day(${f})`, `hour(${f})`, `range(${f}, 1month)`];
  if (type === 'date') return [f, `year(${f})`, `month(${f})`, `range(${f}, 1month)`];
  if (type === 'text') return [f, `lower(${f})`];
  return [f, `range(${f}, 100)`, `range(${f}, *, 0, 10, *)`];
}

/** Random queries of one field of `served`: ungrouped with a where, or grouped with count, min and max. */
function oneFieldQuery(served: Served): fc.Arbitrary<QueryParams> {
  const fields = served.source.fields.filter((f) => served.literals.has(f.name));
  return fc.constantFrom(...fields).chain((field) => {
    const values = served.literals.get(field.name)!;
    const pair = fc.tuple(fc.constantFrom(...values), fc.constantFrom(...values));
    const where = pair.chain((two) =>
      fc.array(fc.constantFrom(...conditions(field.name, field.type, two)), { maxLength: 2 }),
    );
    const aggregates = fc.subarray(
      [
        'count(*) as n',
        `count(${field.name})`,
        `count(distinct ${field.name})`,
        `min(${field.name})`,
        `max(${field.name})`,
      ],
      { minLength: 1 },
    );
    const timezone = fc.constantFrom('UTC', 'Europe/Paris');
    const ungrouped = fc.record({
      where: where.filter((w) => w.length > 0),
      limit: fc.constant(0),
      timezone,
    });
    const grouped = fc
      .record({
        where,
        select: aggregates,
        group: fc.constantFrom(...groupKeys(field.name, field.type)),
        timezone,
      })
      .chain((q) =>
        fc.constantFrom(null, ...(q.select.includes('count(*) as n') ? ['n desc'] : [])).map((orderBy) => ({
          where: q.where,
          select: q.select.join(', '),
          groupBy: q.group,
          ...(orderBy && { orderBy }),
          limit: 50,
          timezone: q.timezone,
        })),
      );
    return fc.oneof(ungrouped, grouped);
  });
}

const withoutCounts = (source: QuerySource): QuerySource => ({ ...source, valueCounts: undefined });

/** Whether the compiled query reads a table of value counts. */
const readsCounts = (params: QueryParams, source: QuerySource): boolean => {
  const compiled = compileQuery(source, { ...params, withGroupCount: true });
  return /__counts__/.test(compiled.sql) || /__counts__/.test(compiled.countSql);
};

describe('value counts: one-field queries over the tables', function () {
  this.timeout(300_000);
  let dir: string;
  let engine: DuckDBEngine;
  const served = new Map<string, Served>();

  /** The rows and the count the engine answers for `params` over `source`. */
  async function answer(source: QuerySource, params: QueryParams) {
    const compiled = compileQuery(source, { ...params, withGroupCount: true });
    const rows = params.limit === 0 ? [] : await engine.queryJson(compiled.sql);
    return { rows, count: await engine.count(compiled.countSql) };
  }

  /** Serves a sample dataset with tables of value counts: ingest's for flights, written here for the others. */
  async function serve(dataset: Dataset): Promise<Served> {
    let paths = dataset.valueCountsPaths;
    if (paths.size === 0) {
      const names = countedFields(dataset.file.fields, {
        ...dataset.file.computed,
        records_count: Infinity,
      }).map((f) => f.name);
      const folder = path.join(dir, dataset.id);
      const instance = await DuckDBInstance.create(':memory:');
      const connection = await instance.connect();
      await writeCountTables(connection, dataset.parquetPath, folder, names);
      connection.closeSync();
      instance.closeSync();
      paths = new Map(names.map((name) => [name, valueCountsPath(folder, name)]));
    }
    await engine.defineView(dataset.view, dataset.parquetPath, 'dataset');
    const literals = new Map<string, string[]>();
    for (const [field, file] of paths) {
      const view = valueCountsViewName(dataset.view, field);
      await engine.defineView(view, file);
      const type = dataset.file.fields.find((f) => f.name === field)!.type;
      const values = await engine.queryJson(
        `SELECT "${field}" AS v FROM "${view}" WHERE "${field}" IS NOT NULL ORDER BY hash("${field}") LIMIT 6`,
      );
      literals.set(
        field,
        values.map((row) => literal(row.v, type)),
      );
    }
    const views = new Map([...paths.keys()].map((f) => [f, valueCountsViewName(dataset.view, f)]));
    return { dataset, source: { ...querySource(dataset), valueCounts: views }, literals };
  }

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-value-counts-'));
    engine = await DuckDBEngine.open({
      allowedDirectories: [SAMPLE_PORTAL, dir],
      tempDirectory: path.join(dir, 'spill'),
      connections: 2,
      countEntries: 0,
    });
    const portal = await loadPortal(SAMPLE_PORTAL, DATASET_CHECKS);
    for (const id of ['flights', 'seattle-weather', 'movies'])
      served.set(id, await serve(portal.datasets.get(id)!));
  });
  after(async () => {
    engine.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('ingest gave the sample flights tables of every field (the others are too small)', () => {
    expect([...served.get('flights')!.dataset.valueCountsPaths.keys()]).to.deep.equal([
      'date',
      'delay',
      'distance',
      'origin',
      'destination',
    ]);
    expect(served.get('movies')!.dataset.valueCountsPaths.size).to.equal(0);
  });

  for (const id of ['flights', 'seattle-weather', 'movies']) {
    it(`answers random one-field counts and groupings of ${id} as the rows do`, async () => {
      const { source } = served.get(id)!;
      await fc.assert(
        fc.asyncProperty(oneFieldQuery(served.get(id)!), async (params) => {
          expect(readsCounts(params, source), 'reads the table').to.equal(true);
          expect(await answer(source, params)).to.deep.equal(await answer(withoutCounts(source), params));
        }),
        { numRuns: id === 'flights' ? 40 : 60, seed: 28 },
      );
    });
  }

  it('reads the rows where a table cannot answer exactly', () => {
    const { dataset, source } = served.get('flights')!;
    const not = (params: QueryParams, over = source) =>
      expect(readsCounts(params, over), JSON.stringify(params)).to.equal(false);
    not({ limit: 0 });
    not({ select: 'count(*)' });
    not({ where: ["origin = 'SFO'"], groupBy: 'month(date)', select: 'count(*)' });
    not({ groupBy: 'delay', select: 'avg(delay)' });
    not({ groupBy: 'delay', select: 'sum(delay), count(*)' });
    not({ groupBy: 'origin', select: 'median(distance)' });
    not({ where: ["search(origin, 'SFO')"], limit: 0 });
    not({ where: ["startswith(origin, 'SF')"], limit: 0 });
    not({ groupBy: 'origin', select: 'count(*)', orderBy: 'random(1)' });
    not({ where: ["origin = 'SFO'"], limit: 0, recordId: 'abc' });
    const text = "destination = 'JFK'";
    const filtered = querySource(dataset, { hiddenFields: new Set(), rowFilter: text });
    expect(filtered.valueCounts).to.equal(undefined);
    not({ where: ["origin = 'SFO'"], limit: 0 }, filtered);
    not({ groupBy: 'destination', select: 'count(*)' }, filtered);
    // And where they can: the same over the dataset's own source, as the server builds it.
    expect(readsCounts({ where: ["origin = 'SFO'"], limit: 0 }, querySource(dataset))).to.equal(true);
  });

  it('counts random facets of flights as the rows do, one-field facets from the tables', async () => {
    const { source, literals } = served.get('flights')!;
    const [sfo, lax] = literals.get('origin')!;
    const origin = (literal: string) => literal.slice(1, -1);
    const facetQuery = fc.record({
      facet: fc.subarray(['origin', 'destination', 'date', 'delay', 'range(distance, 500)'], {
        minLength: 1,
      }),
      refine: fc.subarray([`origin:${origin(sfo!)}`, 'date:2001/02', 'delay:15']),
      exclude: fc.subarray([`origin:${origin(lax!)}`, 'destination:JFK']),
      where: fc.subarray(["origin != 'ORD'", 'delay > 10']),
      timezone: fc.constantFrom('UTC', 'America/New_York'),
    });
    await fc.assert(
      fc.asyncProperty(facetQuery, async ({ facet, refine, exclude, where, timezone }) => {
        const query: FacetQuery = {
          ...facetSelection({ facet, refine, exclude }),
          where: where.map(parseWhere),
          timezone,
        };
        const facets = await enumerateFacets(engine, source, query);
        expect(facets).to.deep.equal(await enumerateFacets(engine, withoutCounts(source), query));
      }),
      {
        numRuns: 40,
        seed: 28,
        // The table page's first request: every facet, no condition.
        examples: [
          [{ facet: ['origin', 'destination'], refine: [], exclude: [], where: [], timezone: 'UTC' }],
        ],
      },
    );
    // Without conditions, or with conditions on the facet's own field, a one-field facet reads its table.
    expect(facetReadsValueCounts(source, { timezone: 'UTC' }, 'origin')).to.equal(true);
    expect(facetReadsValueCounts(source, { where: ["origin = 'SFO'"] }, 'origin')).to.equal(true);
    expect(facetReadsValueCounts(source, { where: ["origin = 'SFO'"] }, 'destination')).to.equal(false);
    expect(facetReadsValueCounts(withoutCounts(source), {}, 'origin')).to.equal(false);
  });

  describe('over HTTP, the sample flights', () => {
    const suite = useSampleSuite();

    it('answers the filtered count and the month grouping as the rows do', async () => {
      const base = '/api/explore/v2.1/catalog/datasets/flights/records';
      const count = await suite.server.json(`${base}?where=${encodeURIComponent("origin = 'SFO'")}&limit=0`);
      const [sfo] = await suite.reference.rows(
        `SELECT count(*)::INTEGER AS n FROM flights WHERE origin = 'SFO'`,
      );
      expect(count.body).to.deep.equal({ total_count: sfo!.n, results: [] });
      const months = await suite.server.json(`${base}?select=count(*) as n&group_by=month(date) as m`);
      const want = await suite.reference.rows(
        `SELECT month(date)::INTEGER AS m, count(*)::INTEGER AS n FROM flights GROUP BY 1 ORDER BY 1`,
      );
      expect(months.body).to.deep.equal({ total_count: want.length, results: want });
    });
  });
});
