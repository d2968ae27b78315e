// One record by its id: the single-record operations of v2.1 and v1, and the catalog's dataset lookup.
import type { QuerySource } from '../odsql/source.js';
import type { Engine, JsonValue } from '../engine/engine.js';
import { compileQuery, type OutputColumn, type QueryParams } from '../odsql/index.js';
import { withQueryMemory } from './query-context.js';

/** A looked-up record: its row (null when no record has the id) and the columns of the answer. */
export interface LookedUpRecord {
  readonly row: Record<string, JsonValue> | null;
  readonly columns: readonly OutputColumn[];
}

/** The record of `source` whose id is `recordId`, shaped by the query parameters (select, lang, ...). */
export async function lookupRecord(
  engine: Engine,
  source: QuerySource,
  recordId: string,
  params: Omit<QueryParams, 'recordId' | 'limit' | 'offset'>,
  signal: AbortSignal,
): Promise<LookedUpRecord> {
  const compiled = compileQuery(source, { ...params, recordId, limit: 1 });
  const [row] = await withQueryMemory(engine, compiled, signal, () =>
    engine.queryJson(compiled.sql, [], signal),
  );
  return { row: row ?? null, columns: compiled.columns };
}
