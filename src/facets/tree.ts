// Counted facet values -> the nested facet objects of supplement 2, sorted and capped per level.
import type { FacetShape, FacetSort } from './facet-fields.js';

export interface FacetValue {
  readonly name: string;
  readonly value: string;
  readonly count?: number;
  readonly state: 'displayed' | 'refined' | 'excluded';
  readonly facets?: FacetValue[];
}

export interface FacetGroup {
  readonly name: string;
  readonly facets: FacetValue[];
}

/** Counts by level (1-based), then by value path. */
export type LevelCounts = Map<number, Map<string, number>>;

type Entry = [value: string, count: number];

const byText = (a: Entry, b: Entry): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
const byNumber = (a: Entry, b: Entry): number => Number(a[0]) - Number(b[0]) || byText(a, b);

/** The order of each sort: ties broken by value so that answers are stable. */
const ORDERS = {
  count: (a, b) => a[1] - b[1] || byText(a, b),
  '-count': (a, b) => b[1] - a[1] || byText(a, b),
  alphanum: byText,
  '-alphanum': (a, b) => byText(b, a),
  num: byNumber,
  '-num': (a, b) => byNumber(b, a),
} satisfies Record<FacetSort, (a: Entry, b: Entry) => number>;

/** Builds one facet's values: a level's values under `parent`, and sub-levels under refined values. */
export function buildTree(
  groupName: string,
  facet: FacetShape,
  counts: LevelCounts,
  options: { limit: number; refined: ReadonlySet<string>; excluded: ReadonlySet<string> },
): FacetGroup {
  const separator = facet.kind === 'plain' ? null : facet.separator;
  // Refining `2020/11` refines its year too: the path down to each refined value is open.
  const refined = new Set<string>();
  for (const value of options.refined) {
    const parts = separator === null ? [value] : value.split(separator);
    parts.forEach((_, i) => refined.add(parts.slice(0, i + 1).join(separator ?? '')));
  }
  const level = (depth: number, parent: string | null): FacetValue[] => {
    const prefix = parent === null ? null : parent + separator!;
    const entries = [...(counts.get(depth) ?? new Map<string, number>())].filter(
      ([value]) => prefix === null || value.startsWith(prefix),
    );
    // The cap never hides a value the user refined on.
    const sorted = entries.sort(ORDERS[facet.sort]);
    const shown = [
      ...sorted.slice(0, options.limit),
      ...sorted.slice(options.limit).filter(([v]) => refined.has(v)),
    ];
    const values: FacetValue[] = shown.map(([value, count]) => {
      const isRefined = refined.has(value);
      const children = isRefined && counts.has(depth + 1) ? level(depth + 1, value) : [];
      return {
        name: separator === null ? value : value.slice(prefix?.length ?? 0),
        value,
        count,
        state: isRefined ? 'refined' : 'displayed',
        ...(children.length && { facets: children }),
      };
    });
    for (const value of options.excluded) {
      const depthOf = separator === null ? 1 : value.split(separator).length;
      if (depthOf !== depth || (prefix !== null && !value.startsWith(prefix))) continue;
      const name = separator === null ? value : value.slice(prefix?.length ?? 0);
      values.push({ name, value, state: 'excluded' });
    }
    return values;
  };
  return { name: groupName, facets: level(1, null) };
}
