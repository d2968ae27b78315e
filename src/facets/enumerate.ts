// Facet enumeration: the values of every requested facet with their counts under the request's
// filters, nested for hierarchies and dates. Scalar facets sharing one filter, fields and
// functions of fields alike (`range(delay, 10)`), are counted in a single statement (DuckDB: one GROUPING SETS scan);
// a multivalued facet, a disjunctive facet whose own refinements must be left out, or a facet
// counted from its field's table of value counts gets its own statement; all run side by side.
import type { QuerySource } from '../catalog/source.js';
import type { Engine } from '../engine/engine.js';
import {
  compileFacetCounts,
  datePathRange,
  facetKeyFields,
  facetReadsValueCounts,
  type FacetParams,
  type ClauseCondition,
  type Expr,
  type FacetKey,
  type Lang,
} from '../odsql/index.js';
import type { Field } from '../catalog/schema.js';
import {
  facetField,
  functionFacetShape,
  requireFacetField,
  requireFacetTarget,
  type FacetField,
  type FacetRequest,
  type FacetShape,
} from './facet-fields.js';
import { selectionConditions, type FacetSelection } from './facet-selection.js';
import { buildTree, type FacetGroup, type LevelCounts } from './tree.js';

export type { FacetGroup, FacetValue } from './tree.js';
export type { FacetRequest } from './facet-fields.js';

export interface FacetQuery extends FacetSelection {
  /** The request's conditions besides refine and exclude (a bare Expr's errors name the where clause). */
  readonly where: readonly (Expr | ClauseCondition)[];
  readonly timezone: string;
  readonly lang?: Lang;
}

/** Default number of values per facet level (supplement 2). */
export const DEFAULT_FACET_LIMIT = 100;

interface Planned {
  /** The facet's name in the answer: its field's, or its function as written. */
  readonly name: string;
  readonly shape: FacetShape;
  /** What is counted at each level: a field's values, or the keys of a function of fields. */
  readonly key: (level: number) => FacetKey;
  readonly limit: number;
  /** Levels counted: 1 for plain facets, one more than the deepest refined path for the others. */
  readonly levels: number;
  readonly refined: ReadonlySet<string>;
  readonly excluded: ReadonlySet<string>;
}

/** A path value in canonical form: date parts zero-padded (`2013/2` -> `2013/02`). */
function canonical(facet: FacetField, value: string): string {
  if (facet.kind !== 'date') return value;
  const range = datePathRange(value);
  if (!range) return value;
  const depth = value.split(/[/-]/).length;
  return range.start.split('-').slice(0, depth).join('/');
}

function planField(source: QuerySource, query: FacetQuery, request: FacetRequest, field: Field): Planned {
  const facet = facetField(field, request);
  const mine = query.refinements.filter(
    (r) => requireFacetField(source, r.facet, 'refine').name === field.name,
  );
  const refined = new Set(mine.filter((r) => !r.exclude).map((r) => canonical(facet, r.value)));
  const excluded = new Set(mine.filter((r) => r.exclude).map((r) => canonical(facet, r.value)));
  const deepest = Math.max(0, ...[...refined].map((v) => v.split(facet.separator).length));
  const levels = facet.kind === 'plain' ? 1 : Math.min(deepest + 1, facet.kind === 'date' ? 3 : 16);
  const limit = request.limit ?? DEFAULT_FACET_LIMIT;
  return { name: field.name, shape: facet, key: fieldKey(facet), limit, levels, refined, excluded };
}

/** The key a field facet counts at each level. */
function fieldKey(facet: FacetField): (level: number) => FacetKey {
  const field = facet.field.name;
  if (facet.kind === 'date') {
    const datetime = facet.field.type === 'datetime';
    return (level) => ({ kind: 'date', field, datetime, level });
  }
  if (facet.kind === 'hierarchical') {
    return (level) => ({ kind: 'path', field, separator: facet.separator, level });
  }
  return () => ({ kind: 'value', field });
}

function plan(source: QuerySource, query: FacetQuery): Planned[] {
  const requests: readonly FacetRequest[] =
    query.facets ??
    source.fields.filter((f) => f.annotations.facet !== undefined).map((f) => ({ name: f.name }));
  const options = { timezone: query.timezone, ...(query.lang && { lang: query.lang }) };
  return requests.map((request) => {
    const target = requireFacetTarget(source, request.name, options);
    if (target.kind === 'field') return planField(source, query, request, target.field);
    const [name, shape, key] = [request.name.trim(), functionFacetShape(request), target];
    const limit = request.limit ?? DEFAULT_FACET_LIMIT;
    return { name, shape, key: () => key, limit, levels: 1, refined: new Set(), excluded: new Set() };
  });
}

/** One statement: rows (s = index of the counted key, v = value, n = count). */
interface Statement {
  readonly sql: string;
  readonly keys: readonly { facetIndex: number; level: number }[];
}

/** The conditions a statement counts under: the request's, and the refinements but those of `skipFacet`. */
function facetParams(source: QuerySource, query: FacetQuery, skipFacet: string | undefined): FacetParams {
  const where = [
    ...query.where,
    ...selectionConditions(source, query, {
      timezone: query.timezone,
      ...(skipFacet !== undefined && { skipFacet }),
    }),
  ];
  return { extraWhere: where, timezone: query.timezone, ...(query.lang && { lang: query.lang }) };
}

function statementFor(
  source: QuerySource,
  query: FacetQuery,
  members: readonly { planned: Planned; index: number }[],
  skipFacet: string | undefined,
): Statement {
  const keys = members.flatMap(({ planned, index }) =>
    Array.from({ length: planned.levels }, (_, i) => ({ facetIndex: index, level: i + 1, planned })),
  );
  const sql = compileFacetCounts(
    source,
    facetParams(source, query, skipFacet),
    keys.map(({ planned, level }) => planned.key(level)),
    members.length === 1 && members[0]!.planned.shape.multivalued,
  );
  return { sql, keys: keys.map(({ facetIndex, level }) => ({ facetIndex, level })) };
}

/** The field whose own refinements a facet is counted without: a refined disjunctive field. */
const skippedBy = (p: Planned): string | undefined => {
  const key = p.key(1);
  return key.kind !== 'function' && p.shape.disjunctive && p.refined.size > 0 ? key.field : undefined;
};

/**
 * Whether a facet of one field is counted alone from the field's table of value counts (the
 * conditions read that field only, src/odsql/value-counts.ts): 229 origins instead of 3M flights.
 */
function countedFromTable(
  source: QuerySource,
  query: FacetQuery,
  p: Planned,
  skip: string | undefined,
): boolean {
  const fields = facetKeyFields([p.key(1)]);
  return (
    !p.shape.multivalued &&
    fields.length === 1 &&
    facetReadsValueCounts(source, facetParams(source, query, skip), fields[0]!)
  );
}

/**
 * The statements of a query: shared scans grouped by the refinements they must leave out, but a
 * facet a table of value counts answers reads it alone.
 */
function statements(source: QuerySource, query: FacetQuery, planned: readonly Planned[]): Statement[] {
  const groups = new Map<string, { planned: Planned; index: number }[]>();
  planned.forEach((p, index) => {
    const group = p.shape.multivalued ? `multivalued:${index}` : `skip:${skippedBy(p) ?? ''}`;
    groups.set(group, [...(groups.get(group) ?? []), { planned: p, index }]);
  });
  return [...groups.values()].flatMap((members) => {
    const skip = skippedBy(members[0]!.planned);
    const alone = members.filter((m) => countedFromTable(source, query, m.planned, skip));
    const shared = members.filter((m) => !alone.includes(m));
    return [...alone.map((m) => [m]), ...(shared.length > 0 ? [shared] : [])].map((ms) =>
      statementFor(source, query, ms, skip),
    );
  });
}

/** Enumerates the facets of a query over `source`. */
export async function enumerateFacets(
  engine: Engine,
  source: QuerySource,
  query: FacetQuery,
  signal?: AbortSignal,
): Promise<FacetGroup[]> {
  const planned = plan(source, query);
  const counts: LevelCounts[] = planned.map(() => new Map<number, Map<string, number>>());
  const work = statements(source, query, planned);
  const results = await Promise.all(work.map((s) => engine.queryJson(s.sql, [], signal)));
  results.forEach((rows, i) => {
    for (const row of rows) {
      if (typeof row.v !== 'string') continue;
      const key = work[i]!.keys[Number(row.s)]!;
      const levels = counts[key.facetIndex]!;
      const level = levels.get(key.level) ?? new Map<string, number>();
      level.set(row.v, Number(row.n));
      levels.set(key.level, level);
    }
  });
  return planned.map((p, i) =>
    buildTree(p.name, p.shape, counts[i]!, { limit: p.limit, refined: p.refined, excluded: p.excluded }),
  );
}
