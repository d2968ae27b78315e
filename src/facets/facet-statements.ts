// The statements that count a request's facets. Scalar facets sharing one filter, fields and
// functions of fields alike (`range(delay, 10)`), are counted in a single statement (DuckDB: one
// GROUPING SETS scan); the facets a field's table of value counts answers are counted together
// from that table; a multivalued field's facets, and a disjunctive facet whose own refinements
// must be left out, get statements of their own. The conditions of each statement are compiled
// once per distinct set of refinements left out, never once per facet: the work of a request
// grows with its number of facets, not with its square.
import type { QuerySource } from '../odsql/source.js';
import { loopTurn } from '../engine/slices.js';
import {
  compileFacetCounts,
  facetKeyFields,
  facetReadsValueCounts,
  type FacetParams,
} from '../odsql/index.js';
import type { FacetPlan, FacetQuery, Planned } from './facet-plan.js';
import { selectionConditions } from './facet-selection.js';
import { capFacetRows, type FacetCap } from '../odsql/dialect/duckdb/facet-cap.js';
import { elementCountsSql } from '../odsql/dialect/duckdb/catalog-counts.js';

/** What the SQL cap of a facet's values needs: a plain facet of one level sorted by count, else null. */
export function facetCap(p: Planned): FacetCap | null {
  const { kind, sort } = p.shape;
  if (kind !== 'plain' || p.levels !== 1 || (sort !== 'count' && sort !== '-count')) return null;
  return { descending: sort === '-count', limit: p.limit, refined: p.refined };
}

/**
 * One statement: rows (s = index of the counted key, v = value, n = count); each key's counts
 * answer every facet of `facetIndexes` (a facet asked twice is counted once) at its `level`.
 */
export interface Statement {
  readonly sql: string;
  readonly keys: readonly { facetIndexes: readonly number[]; level: number }[];
}

/** A facet as counted: the first of the request's facets that count alike, and their indexes. */
type Member = { readonly planned: Planned; readonly indexes: readonly number[] };

/** The field whose own refinements a facet is counted without: a refined disjunctive field. */
const skippedBy = (p: Planned): string | undefined => {
  const key = p.key(1);
  return key.kind !== 'function' && p.shape.disjunctive && p.refined.size > 0 ? key.field : undefined;
};

/** The one field a facet reads, or null (a function of several fields). */
const soleField = (p: Planned): string | null => {
  const fields = facetKeyFields([p.key(1)]);
  return fields.length === 1 ? fields[0]! : null;
};

/**
 * The conditions a request's statements count under, each compiled once: the request's, with
 * the refinements but those of the skipped facet; and whether a field's table of value counts
 * answers under them (src/odsql/value-counts.ts).
 */
function requestConditions(source: QuerySource, query: FacetQuery, plan: FacetPlan) {
  const params = new Map<string, FacetParams>();
  const tables = new Map<string, boolean>();
  const paramsFor = (skip: string | undefined): FacetParams => {
    let found = params.get(skip ?? '');
    if (found === undefined) {
      const options = { timezone: query.timezone, overrides: plan.overrides };
      const refinements = selectionConditions(source, query, {
        ...options,
        ...(skip && { skipFacet: skip }),
      });
      const extraWhere = [...query.where, ...refinements];
      found = { extraWhere, timezone: query.timezone, ...(query.lang && { lang: query.lang }) };
      params.set(skip ?? '', found);
    }
    return found;
  };
  const readsTable = (skip: string | undefined, field: string): boolean => {
    const key = `${skip ?? ''}\0${field}`;
    let found = tables.get(key);
    if (found === undefined) {
      found = facetReadsValueCounts(source, paramsFor(skip), field);
      tables.set(key, found);
    }
    return found;
  };
  return { paramsFor, readsTable };
}

/**
 * Keys counted by one statement at most. DuckDB's GROUPING SETS keeps a hash table per set with
 * every key's column: past a few dozen sets a statement's memory and time grow with the square
 * of its keys (docs/facets.md; bench/README.md, Measurements behind the code), so more keys make
 * more statements.
 */
export const KEYS_PER_STATEMENT = 16;

/**
 * The request's facets, those that count alike (the same keys under the same conditions, capped
 * alike) gathered into one member: `facet=state` given twice, or 20 times, is counted once.
 */
function distinctMembers(plan: FacetPlan): Member[] {
  const indexed = plan.planned.map((planned, index) => ({ planned, index }));
  return gather(indexed, ({ planned: p }) => {
    const keys = Array.from({ length: p.levels }, (_, i) => p.key(i + 1));
    const cap = facetCap(p);
    const refined = [...p.refined].sort();
    return JSON.stringify([keys, p.shape.multivalued, skippedBy(p) ?? null, cap && { ...cap, refined }]);
  }).map((same) => ({ planned: same[0]!.planned, indexes: same.map(({ index }) => index) }));
}

/** Members in batches of at most KEYS_PER_STATEMENT keys (a facet's levels stay together). */
function batches(members: readonly Member[]): Member[][] {
  const all: Member[][] = [];
  let keys = Infinity;
  for (const member of members) {
    if (keys + member.planned.levels > KEYS_PER_STATEMENT) {
      all.push([]);
      keys = 0;
    }
    all[all.length - 1]!.push(member);
    keys += member.planned.levels;
  }
  return all;
}

/** Members gathered by `keyOf`, in the order of their first member. */
function gather<T>(items: readonly T[], keyOf: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return [...groups.values()];
}

/**
 * The statement of one plain facet of a multivalued field under no condition, from the field's
 * table of element counts when the source has one (the catalog's:
 * src/odsql/dialect/duckdb/catalog-counts.ts); else null.
 */
function elementsAlone(source: QuerySource, members: readonly Member[], params: FacetParams): string | null {
  const planned = members.length === 1 ? members[0]!.planned : null;
  if (planned === null || !planned.shape.multivalued || planned.shape.kind !== 'plain') return null;
  const field = soleField(planned);
  const table = field === null ? undefined : source.elementCounts?.get(field);
  const unconditioned =
    (params.extraWhere ?? []).length === 0 && (params.where ?? []).length === 0 && !source.rowFilter;
  return table !== undefined && unconditioned ? elementCountsSql(table) : null;
}

/** The statements counting a request's planned facets, compiled in slices of the event loop. */
export async function facetStatements(
  source: QuerySource,
  query: FacetQuery,
  plan: FacetPlan,
): Promise<Statement[]> {
  const conditions = requestConditions(source, query, plan);
  const statementFor = (members: readonly Member[], skip: string | undefined): Statement => {
    const keys = members.flatMap(({ planned, indexes }) =>
      Array.from({ length: planned.levels }, (_, i) => ({ facetIndexes: indexes, level: i + 1, planned })),
    );
    const counts =
      elementsAlone(source, members, conditions.paramsFor(skip)) ??
      compileFacetCounts(
        source,
        conditions.paramsFor(skip),
        keys.map(({ planned, level }) => planned.key(level)),
        members[0]!.planned.shape.multivalued,
      );
    // DuckDB's (the catalog's, the datasets'): an attached engine's statement sends every value.
    const sql =
      source.dialect === undefined
        ? capFacetRows(
            counts,
            keys.map(({ planned }) => facetCap(planned)),
          )
        : counts;
    return { sql, keys: keys.map(({ facetIndexes, level }) => ({ facetIndexes, level })) };
  };
  // A multivalued field's facets are counted by element, apart from the others.
  const groups = gather(distinctMembers(plan), ({ planned: p }) =>
    p.shape.multivalued ? `multivalued:${soleField(p)}:${skippedBy(p) ?? ''}` : `skip:${skippedBy(p) ?? ''}`,
  );
  const statements: Statement[] = [];
  for (const group of groups) {
    const skip = skippedBy(group[0]!.planned);
    const fromTable = (m: Member): string | null => {
      const field = soleField(m.planned);
      const alone = !m.planned.shape.multivalued && field !== null && conditions.readsTable(skip, field);
      return alone ? field : null;
    };
    const byTable = gather(group, (m) => {
      const table = fromTable(m);
      return table === null ? 'scan' : `table:${table}`;
    });
    for (const batch of byTable.flatMap(batches)) {
      await loopTurn();
      statements.push(statementFor(batch, skip));
    }
  }
  return statements;
}
