// refine and exclude: `facet:value` filters turned into ODSQL conditions, the same AST as `where`.
import type { QuerySource } from '../catalog/source.js';
import { parseWhere, QueryLangError, type ClauseCondition } from '../odsql/index.js';
import type { Clause } from '../odsql/errors.js';
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

const odsqlString = (text: string): string => `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** `YYYY`, `YYYY/MM` or `YYYY/MM/DD` -> the ISO start and end (exclusive) of that period. */
export function datePathRange(path: string): { start: string; end: string } | null {
  const match = /^(\d{4})(?:[/-](\d{1,2})(?:[/-](\d{1,2}))?)?$/.exec(path.trim());
  if (!match) return null;
  const [year, month, day] = [
    Number(match[1]),
    match[2] ? Number(match[2]) : null,
    match[3] ? Number(match[3]) : null,
  ];
  if (month !== null && (month < 1 || month > 12)) return null;
  const start = new Date(Date.UTC(year, (month ?? 1) - 1, day ?? 1));
  if (day !== null && start.getUTCDate() !== day) return null;
  const end = new Date(start);
  if (day !== null) end.setUTCDate(end.getUTCDate() + 1);
  else if (month !== null) end.setUTCMonth(end.getUTCMonth() + 1);
  else end.setUTCFullYear(end.getUTCFullYear() + 1);
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  return { start: iso(start), end: iso(end) };
}

/** ODSQL text of "the record has this facet value". */
function valueCondition(facet: FacetField, value: string, clause: Clause): string {
  const name = `\`${facet.field.name}\``;
  if (facet.kind === 'date') {
    const range = datePathRange(value);
    if (!range)
      throw new QueryLangError(`Invalid date facet value ${value}: expected YYYY, YYYY/MM or YYYY/MM/DD`, [
        clause,
      ]);
    return `(${name} >= date'${range.start}' AND ${name} < date'${range.end}')`;
  }
  if (facet.kind === 'hierarchical') {
    return `(${name} = ${odsqlString(value)} OR startswith(${name}, ${odsqlString(value + facet.separator)}))`;
  }
  const { type } = facet.field;
  if (type === 'int' || type === 'double') {
    if (!/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value)) {
      throw new QueryLangError(`Invalid value ${value} for numeric facet ${facet.field.name}`, [clause]);
    }
    return `${name} = ${value}`;
  }
  if (type === 'boolean') {
    if (!/^(true|false)$/i.test(value))
      throw new QueryLangError(`Invalid value ${value} for boolean facet ${facet.field.name}`, [clause]);
    return `${name} = ${value.toLowerCase()}`;
  }
  return `${name} = ${odsqlString(value)}`;
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
    const clause: Clause = r.exclude ? 'exclude' : 'refine';
    const field = requireFacetField(source, r.facet, clause);
    if (field.name === options.skipFacet) continue;
    const entry = byFacet.get(field.name) ?? {
      facet: facetField(field, options.overrides?.get(field.name) ?? {}),
      refine: [],
      exclude: [],
    };
    byFacet.set(field.name, entry);
    (r.exclude ? entry.exclude : entry.refine).push(valueCondition(entry.facet, r.value, clause));
  }
  const conditions: ClauseCondition[] = [];
  for (const { facet, refine, exclude } of byFacet.values()) {
    if (refine.length) {
      const text = refine.join(facet.disjunctive ? ' OR ' : ' AND ');
      conditions.push({ expr: parseWhere(refine.length > 1 ? `(${text})` : text), clause: 'refine' });
    }
    for (const condition of exclude)
      conditions.push({ expr: parseWhere(`NOT ${condition}`), clause: 'exclude' });
  }
  return conditions;
}
