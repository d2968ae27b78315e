// refine and exclude: the values a request picks in a facet, as conditions of the ODSQL syntax
// tree (the same AST as `where`, so they are analyzed and compiled like any condition).
import type { Field } from '../catalog/schema.js';
import type { ClauseCondition } from './analyze.js';
import { node, type Expr } from './ast.js';
import { QueryLangError, type Clause } from './errors.js';

/** How a facet reads the values a request refines or excludes. */
export interface RefinedFacet {
  readonly field: Field;
  /** `date`: a YYYY[/MM[/DD]] path; `hierarchical`: a path on `separator`; `plain`: one value. */
  readonly kind: 'plain' | 'hierarchical' | 'date';
  readonly separator: string;
  /** Refined values are ORed (any of them) instead of ANDed (all of them). */
  readonly disjunctive: boolean;
}

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

const NUMBER_TEXT = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** The literal a plain facet value stands for, of the field's type. */
function valueLiteral(field: Field, value: string, clause: Clause): Expr {
  if (field.type === 'int' || field.type === 'double') {
    if (!NUMBER_TEXT.test(value))
      throw new QueryLangError(`Invalid value ${value} for numeric facet ${field.name}`, [clause]);
    return node.number(Number(value));
  }
  if (field.type === 'boolean') {
    if (!/^(true|false)$/i.test(value))
      throw new QueryLangError(`Invalid value ${value} for boolean facet ${field.name}`, [clause]);
    return node.boolean(value.toLowerCase() === 'true');
  }
  return node.string(value);
}

/** "The record has this facet value": in the date period, on the path or under it, or equal. */
function valueCondition(facet: RefinedFacet, value: string, clause: Clause): Expr {
  const ref = node.field(facet.field.name, true);
  if (facet.kind === 'date') {
    const range = datePathRange(value);
    if (!range)
      throw new QueryLangError(`Invalid date facet value ${value}: expected YYYY, YYYY/MM or YYYY/MM/DD`, [
        clause,
      ]);
    return node.logical('and', [
      node.comparison('>=', ref, node.date(range.start)),
      node.comparison('<', ref, node.date(range.end)),
    ]);
  }
  if (facet.kind === 'hierarchical') {
    return node.logical('or', [
      node.comparison('=', ref, node.string(value)),
      node.call('startswith', [ref, node.string(value + facet.separator)]),
    ]);
  }
  return node.comparison('=', ref, valueLiteral(facet.field, value, clause));
}

/**
 * The conditions of one facet's values: the refined values in one condition (ANDed, or ORed when
 * the facet is disjunctive), then one NOT condition per excluded value.
 */
export function facetConditions(
  facet: RefinedFacet,
  refine: readonly string[],
  exclude: readonly string[],
): ClauseCondition[] {
  const refined = refine.map((value) => valueCondition(facet, value, 'refine'));
  const excluded = exclude.map((value) => valueCondition(facet, value, 'exclude'));
  return [
    ...(refined.length === 0
      ? []
      : [
          {
            expr:
              refined.length === 1 ? refined[0]! : node.logical(facet.disjunctive ? 'or' : 'and', refined),
            clause: 'refine' as const,
          },
        ]),
    ...excluded.map((expr) => ({ expr: node.not(expr), clause: 'exclude' as const })),
  ];
}
