// The common filtering context of explore-api.md ("Common parameters") and the page rules of
// supplement section 4, shared by every operation that runs an ODSQL query.
import { z } from 'zod';
import type { QuerySource } from '../odsql/source.js';
import type { Engine } from '../engine/engine.js';
import type { JsonValue } from '../engine/engine.js';
import { compileQuery, LANGS, splitRow, type CompiledQuery, type QueryParams } from '../odsql/index.js';
import { invalidParameter } from '../http/errors.js';
import { facetSelection, selectionConditions } from '../facets/facet-selection.js';
import { facetList, integer, oneOf, repeated, text, timezone } from './params.js';
import { parseV1Query } from './v1/q-language/index.js';

/** Without group_by a page is at most 100 rows within the first 10,000; with it, 20,000 groups. */
export const PAGE_LIMIT = 100;
export const RECORDS_WINDOW = 10_000;
export const GROUPS_WINDOW = 20_000;

/** select, where, group_by, order_by, refine, exclude, lang, timezone. */
export const filterParams = z.object({
  select: text(),
  where: repeated(),
  /** v1's query language, as the public service's widgets send it to v2 (docs/api.md). */
  qv1: repeated(),
  group_by: text(),
  order_by: text(),
  refine: repeated(),
  exclude: repeated(),
  /** facet(name="f", disjunctive=true) declarations: the refines on f are ORed (supplement 3). */
  facet: facetList(),
  lang: oneOf('lang', LANGS, undefined),
  timezone: timezone(),
});

/**
 * limit and offset of a paged JSON answer (records, catalog list). The bound of limit depends on
 * group_by, so `pageOf` checks it and names the one that applies.
 */
export const pageParams = z.object({
  limit: integer('limit', { min: -1, max: null, default: 10 }).meta({
    maximum: GROUPS_WINDOW,
    description: `-1 to ${PAGE_LIMIT} without group_by, to ${GROUPS_WINDOW} with it; -1: the largest page allowed`,
  }),
  offset: integer('offset', { min: 0, max: null, default: 0 }),
});

export type FilterParams = z.output<typeof filterParams>;
export type PageParams = z.output<typeof pageParams>;

/**
 * The ODSQL parameters of a request's filtering context over `source` (every operation that
 * filters, records, exports, facets, the catalog and v1, builds its query here).
 */
export function toQueryParams(source: QuerySource, params: FilterParams): QueryParams {
  const refinements = selectionConditions(source, facetSelection(params), { timezone: params.timezone });
  const conditions = [...params.qv1.map((q) => parseV1Query(source, q)), ...refinements];
  return {
    ...(conditions.length && { extraWhere: conditions }),
    ...(params.select !== undefined && { select: params.select }),
    where: params.where,
    ...(params.group_by !== undefined && { groupBy: params.group_by }),
    ...(params.order_by !== undefined && { orderBy: params.order_by }),
    ...(params.lang !== undefined && { lang: params.lang }),
    timezone: params.timezone,
  };
}

/**
 * The page a request asks for, under supplement section 4: limit -1..100 and offset + limit <=
 * 10,000 without group_by; limit and offset + limit <= 20,000 with it. -1 is the largest page
 * the window still allows.
 */
export function pageOf(params: PageParams, grouped: boolean): { limit: number; offset: number } {
  const maxLimit = grouped ? GROUPS_WINDOW : PAGE_LIMIT;
  const window = grouped ? GROUPS_WINDOW : RECORDS_WINDOW;
  if (params.limit > maxLimit) {
    throw invalidParameter('limit', `${params.limit} was found but -1 <= limit <= ${maxLimit} is expected.`);
  }
  const limit = params.limit === -1 ? Math.min(maxLimit, Math.max(window - params.offset, 0)) : params.limit;
  if (params.offset + limit > window) {
    throw invalidParameter(
      'offset',
      `${params.offset} was found but offset + limit <= ${window} is expected (limit is ${limit}).`,
    );
  }
  return { limit, offset: params.offset };
}

/** A page of results and the number of rows (or groups) the query matches. */
export interface QueryPage {
  total_count: number;
  results: Record<string, JsonValue>[];
}

/**
 * Whether `compiled` counts every record of a dataset served by DuckDB (no condition, no row
 * filter: the count query of no parameters at all): its count is then the records_count computed
 * at ingest over the same file, with no statement run (saving DuckDB's work and a trip through
 * libuv's thread pool: docs/http-caching.md).
 */
function countsEveryRecord(source: QuerySource, compiled: CompiledQuery): boolean {
  return (
    source.dialect === undefined &&
    source.rows !== undefined &&
    !source.rowFilter &&
    !compiled.grouped &&
    compiled.countSql === compileQuery(source, {}).countSql
  );
}

/**
 * Compiles a paged query over `source` and runs it. Records: the page and the count side by
 * side. Groups: one aggregation gives the page and the number of groups, on each row (DuckDB) or
 * beside the rows (ClickHouse); only a page past DuckDB's last group needs the count query.
 */
export async function runPagedQuery(
  engine: Engine,
  source: QuerySource,
  params: FilterParams & PageParams,
  signal: AbortSignal,
  overrides: Partial<QueryParams> = {},
): Promise<QueryPage> {
  const page = pageOf(params, params.group_by !== undefined);
  const query = { ...toQueryParams(source, params), ...page, ...overrides };
  const count = (compiled: CompiledQuery): Promise<number> =>
    countsEveryRecord(source, compiled)
      ? Promise.resolve(source.rows!)
      : engine.count(compiled.countSql, signal);
  const compiled = compileQuery(source, { ...query, withGroupCount: true, limit: Math.max(page.limit, 1) });
  return withQueryMemory(engine, compiled, signal, async () => {
    if (!compiled.grouped) {
      const [total_count, results] = await Promise.all([
        count(compiled),
        page.limit > 0 ? engine.queryJson(compiled.sql, [], signal) : Promise.resolve([]),
      ]);
      return { total_count, results };
    }
    const { rows, rowsBeforeLimit } = await engine.queryPage(compiled.sql, signal);
    const split = rows.map(splitRow);
    const total_count =
      split[0]?.groupCount !== undefined
        ? Number(split[0].groupCount)
        : (rowsBeforeLimit ?? (await count(compiled)));
    const results = page.limit > 0 ? split.map((row) => row.values) : [];
    return { total_count, results };
  });
}

/** Runs `work` holding the memory `compiled`'s holistic aggregations may need (Engine.reserveMemory). */
export async function withQueryMemory<T>(
  engine: Engine,
  compiled: CompiledQuery,
  signal: AbortSignal,
  work: () => Promise<T>,
): Promise<T> {
  if (compiled.holisticBytes === 0) return work();
  const release = await engine.reserveMemory(compiled.holisticBytes, signal);
  try {
    return await work();
  } finally {
    release();
  }
}
