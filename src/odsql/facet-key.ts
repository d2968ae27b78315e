// What a facet counts, row by row, whatever the engine: each level's key of a field, or a
// group_by function of fields. Each dialect writes the statement counting them
// (dialect/<engine>/facet-counts.ts); src/facets/ plans which facets share a statement.

/** One group_by key's SQL over the source's columns, one row at a time (compileGroupKey). */
export interface GroupKeySql {
  /** What rows are grouped on. */
  readonly group: string;
  /**
   * The key as text, as group_by writes it in JSON (`10-20`, `*-90`, `2001-01-01`), null outside
   * every bucket. The same for every row of a group: computed once per group from any of its rows.
   */
  readonly text: string;
  /** The fields the key reads. */
  readonly fields: readonly string[];
}

/** What one level of one facet counts, row by row. */
export type FacetKey =
  /** The field's values as text. */
  | { readonly kind: 'value'; readonly field: string }
  /** A date or datetime field's year (level 1), month (2) or day (3) in the query's time zone. */
  | { readonly kind: 'date'; readonly field: string; readonly datetime: boolean; readonly level: number }
  /** The first `level` parts of a text path split on `separator`. */
  | { readonly kind: 'path'; readonly field: string; readonly separator: string; readonly level: number }
  /** The buckets of a group_by function of fields (compileGroupKey). */
  | { readonly kind: 'function'; readonly key: GroupKeySql };

/** The fields `keys` read, each once, in the order of the keys. */
export const facetKeyFields = (keys: readonly FacetKey[]): string[] => [
  ...new Set(keys.flatMap((k) => (k.kind === 'function' ? k.key.fields : [k.field]))),
];

/** The fields function keys read, each once: a row of them per group writes the keys' text. */
export const functionKeyFields = (keys: readonly FacetKey[]): string[] => [
  ...new Set(keys.flatMap((k) => (k.kind === 'function' ? k.key.fields : []))),
];
