// The facet parameters of a v2 request, read in one place for every operation that filters
// (records, exports, group_by, facets, the catalog): the facets it declares with `facet=` and
// its refine/exclude values. A facet(name="f", disjunctive=true) declaration ORs the refines on
// `f` wherever they apply (supplement 3), not only where facets are enumerated.
import type { QuerySource } from '../odsql/source.js';
import type { ClauseCondition } from '../odsql/index.js';
import { parseFacetParam } from './facet-param.js';
import { requireFacetTarget, type FacetOverrides, type FacetRequest } from './facet-fields.js';
import { parseRefinements, refinementConditions, type Refinement } from './refine.js';

/** What a request says about facets. */
export interface FacetSelection {
  /** The `facet` parameters; null when there are none (facets then enumerates every annotated field). */
  readonly facets: readonly FacetRequest[] | null;
  readonly refinements: readonly Refinement[];
}

/** Reads the `facet`, `refine` and `exclude` parameters of a request. */
export function facetSelection(params: {
  readonly facet: readonly string[];
  readonly refine: readonly string[];
  readonly exclude: readonly string[];
}): FacetSelection {
  return {
    facets: params.facet.length ? params.facet.map(parseFacetParam) : null,
    refinements: parseRefinements(params.refine, params.exclude),
  };
}

/**
 * The facet() overrides of a selection by field name. A declared name must be a facet field or a
 * valid function of fields (which refines nothing): checked on every operation alike.
 */
function declaredOverrides(
  source: QuerySource,
  selection: FacetSelection,
  timezone: string,
): Map<string, FacetOverrides> {
  const overrides = new Map<string, FacetOverrides>();
  for (const request of selection.facets ?? []) {
    const target = requireFacetTarget(source, request.name, { timezone });
    if (target.kind === 'field') overrides.set(target.field.name, request);
  }
  return overrides;
}

/**
 * The refine and exclude conditions of a selection over `source`, with the declared facets'
 * disjunctive and hierarchical options (`overrides`, when the caller read them already: each
 * declaration costs an analysis). `skipFacet` leaves out one facet's own refinements (a
 * disjunctive facet counting its alternatives).
 */
export function selectionConditions(
  source: QuerySource,
  selection: FacetSelection,
  options: { timezone: string; skipFacet?: string; overrides?: ReadonlyMap<string, FacetOverrides> },
): ClauseCondition[] {
  const overrides = options.overrides ?? declaredOverrides(source, selection, options.timezone);
  if (!selection.refinements.length) return [];
  return refinementConditions(source, selection.refinements, { ...options, overrides });
}
