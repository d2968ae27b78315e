// What each requested facet counts, worked out once per request: its target (a field or a
// function of fields, analyzed once here and nowhere else), its key at each level, its limit
// and the values refined or excluded on it.
import type { Field } from '../catalog/schema.js';
import type { QuerySource } from '../odsql/source.js';
import { loopTurn } from '../engine/slices.js';
import { datePathRange, type ClauseCondition, type Expr, type FacetKey, type Lang } from '../odsql/index.js';
import {
  facetField,
  functionFacetShape,
  requireFacetField,
  requireFacetTarget,
  type FacetField,
  type FacetOverrides,
  type FacetRequest,
  type FacetShape,
} from './facet-fields.js';
import type { FacetSelection } from './facet-selection.js';

export interface FacetQuery extends FacetSelection {
  /** The request's conditions besides refine and exclude (a bare Expr's errors name the where clause). */
  readonly where: readonly (Expr | ClauseCondition)[];
  readonly timezone: string;
  readonly lang?: Lang;
}

/** Default number of values per facet level (supplement 2). */
export const DEFAULT_FACET_LIMIT = 100;

/** One facet of a request, planned. */
export interface Planned {
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

/** The facets of a request, and the facet() options it declares by field name. */
export interface FacetPlan {
  readonly planned: readonly Planned[];
  readonly overrides: ReadonlyMap<string, FacetOverrides>;
}

/** A path value in canonical form: date parts zero-padded (`2013/2` -> `2013/02`). */
function canonical(facet: FacetField, value: string): string {
  if (facet.kind !== 'date') return value;
  const range = datePathRange(value);
  if (!range) return value;
  const depth = value.split(/[/-]/).length;
  return range.start.split('-').slice(0, depth).join('/');
}

/** The refined and excluded values of a request, by the canonical name of their field. */
function refinedByField(source: QuerySource, query: FacetQuery) {
  const byField = new Map<string, { value: string; exclude: boolean }[]>();
  for (const r of query.refinements) {
    const name = requireFacetField(source, r.facet, r.exclude ? 'exclude' : 'refine').name;
    byField.set(name, [...(byField.get(name) ?? []), r]);
  }
  return byField;
}

function planField(
  request: FacetRequest,
  field: Field,
  mine: readonly { value: string; exclude: boolean }[],
): Planned {
  const facet = facetField(field, request);
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

/**
 * Plans the facets of a query: those it asks for, or every annotated field. Each target is
 * resolved once (a function of fields is one analysis), in slices of the event loop.
 */
export async function planFacets(source: QuerySource, query: FacetQuery): Promise<FacetPlan> {
  const requests: readonly FacetRequest[] =
    query.facets ??
    source.fields.filter((f) => f.annotations.facet !== undefined).map((f) => ({ name: f.name }));
  const options = { timezone: query.timezone, ...(query.lang && { lang: query.lang }) };
  const refined = refinedByField(source, query);
  const overrides = new Map<string, FacetOverrides>();
  const planned: Planned[] = [];
  for (const request of requests) {
    await loopTurn();
    const target = requireFacetTarget(source, request.name, options);
    if (target.kind === 'field') {
      if (query.facets) overrides.set(target.field.name, request);
      planned.push(planField(request, target.field, refined.get(target.field.name) ?? []));
      continue;
    }
    const [name, shape, key] = [request.name.trim(), functionFacetShape(request), target];
    const limit = request.limit ?? DEFAULT_FACET_LIMIT;
    planned.push({ name, shape, key: () => key, limit, levels: 1, refined: new Set(), excluded: new Set() });
  }
  return { planned, overrides };
}
