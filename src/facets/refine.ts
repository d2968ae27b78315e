// refine and exclude: the `facet:value` parameters, gathered by facet for odsql's conditions.
import type { QuerySource } from '../odsql/source.js';
import { facetConditions, QueryLangError, type Clause, type ClauseCondition } from '../odsql/index.js';
import { facetField, requireFacetField, type FacetField, type FacetOverrides } from './facet-fields.js';

export interface Refinement {
  readonly facet: string;
  readonly value: string;
  readonly exclude: boolean;
}

/** `name:value`, `` `name`:value ``, `name:"value"` (backslash escapes inside quotes). */
function parseOne(text: string, exclude: boolean): Refinement {
  const clause: Clause = exclude ? 'exclude' : 'refine';
  const named = /^\s*(?:`([^`]+)`|([^:`]+?))\s*:(.*)$/s.exec(text);
  if (!named) throw new QueryLangError(`Expected facet:value, got ${text}`, [clause]);
  const raw = named[3]!.trim();
  const quoted = /^(["'])((?:\\.|(?!\1).)*)\1$/s.exec(raw);
  const value = quoted ? quoted[2]!.replace(/\\(.)/gs, '$1') : raw;
  return { facet: (named[1] ?? named[2]!).trim(), value, exclude };
}

/** The refinements of a request, v2.1 syntax, refine first then exclude. */
export function parseRefinements(refine: readonly string[], exclude: readonly string[]): Refinement[] {
  return [...refine.map((r) => parseOne(r, false)), ...exclude.map((e) => parseOne(e, true))];
}

/**
 * The conditions of refinements over a source: values of one facet ANDed, or ORed when the
 * facet is disjunctive; each excluded value removes its records. `skipFacet` leaves out the
 * refinements of one facet (a disjunctive facet's own, when counting its alternatives).
 */
export function refinementConditions(
  source: QuerySource,
  refinements: readonly Refinement[],
  options: {
    timezone?: string;
    /** Per field name: the facet() overrides of the request (disjunctive, hierarchical, separator). */
    overrides?: ReadonlyMap<string, FacetOverrides>;
    skipFacet?: string;
  },
): ClauseCondition[] {
  const byFacet = new Map<string, { facet: FacetField; refine: string[]; exclude: string[] }>();
  for (const r of refinements) {
    const field = requireFacetField(source, r.facet, r.exclude ? 'exclude' : 'refine');
    if (field.name === options.skipFacet) continue;
    const entry = byFacet.get(field.name) ?? {
      facet: facetField(field, options.overrides?.get(field.name) ?? {}),
      refine: [],
      exclude: [],
    };
    byFacet.set(field.name, entry);
    (r.exclude ? entry.exclude : entry.refine).push(r.value);
  }
  return [...byFacet.values()].flatMap(({ facet, refine, exclude }) =>
    facetConditions(facet, refine, exclude),
  );
}
