// Facet enumeration: the values of every requested facet with their counts under the request's
// filters, nested for hierarchies and dates. The facets are planned once (facet-plan.ts), counted
// by a few statements run side by side (facet-statements.ts), and shaped into trees (tree.ts).
import { setMaxListeners } from 'node:events';
import type { QuerySource } from '../odsql/source.js';
import type { Engine, JsonValue } from '../engine/engine.js';
import { loopTurn } from '../engine/slices.js';
import { planFacets, type FacetQuery } from './facet-plan.js';
import { facetStatements, type Statement } from './facet-statements.js';
import { buildTree, type FacetGroup, type LevelCounts } from './tree.js';

export type { FacetGroup, FacetValue } from './tree.js';
export type { FacetRequest } from './facet-fields.js';
export { DEFAULT_FACET_LIMIT, type FacetQuery } from './facet-plan.js';

/**
 * Runs a request's statements side by side under one signal of their own: the request's signal
 * gets one listener (removed after), each statement one on this signal, which is sized to them;
 * the first statement that fails (past the deadline, out of memory) interrupts the others.
 */
async function runStatements(
  engine: Engine,
  work: readonly Statement[],
  signal: AbortSignal | undefined,
): Promise<Record<string, JsonValue>[][]> {
  const stop = new AbortController();
  setMaxListeners(work.length + 1, stop.signal);
  const forward = (): void => stop.abort();
  if (signal?.aborted) stop.abort();
  else signal?.addEventListener('abort', forward, { once: true });
  try {
    return await Promise.all(
      work.map((s) =>
        engine.queryJson(s.sql, [], stop.signal).catch((error: unknown) => {
          stop.abort();
          throw error;
        }),
      ),
    );
  } finally {
    signal?.removeEventListener('abort', forward);
  }
}

/** Enumerates the facets of a query over `source`. */
export async function enumerateFacets(
  engine: Engine,
  source: QuerySource,
  query: FacetQuery,
  signal?: AbortSignal,
): Promise<FacetGroup[]> {
  const plan = await planFacets(source, query);
  const counts: LevelCounts[] = plan.planned.map(() => new Map<number, Map<string, number>>());
  const work = await facetStatements(source, query, plan);
  const results = await runStatements(engine, work, signal);
  for (const [i, rows] of results.entries()) {
    await loopTurn();
    for (const row of rows) {
      if (typeof row.v !== 'string') continue;
      const key = work[i]!.keys[Number(row.s)]!;
      const levels = counts[key.facetIndex]!;
      const level = levels.get(key.level) ?? new Map<string, number>();
      level.set(row.v, Number(row.n));
      levels.set(key.level, level);
    }
  }
  const trees: FacetGroup[] = [];
  for (const [i, p] of plan.planned.entries()) {
    await loopTurn();
    trees.push(
      buildTree(p.name, p.shape, counts[i]!, { limit: p.limit, refined: p.refined, excluded: p.excluded }),
    );
  }
  return trees;
}
