// How a field behaves as a facet: its kind (plain, hierarchical text, date path), its separator,
// whether refinements on it are ORed, and its default sort.
import type { Field } from '../catalog/schema.js';
import type { QuerySource } from '../odsql/source.js';
import {
  compileGroupKey,
  findField,
  QueryLangError,
  type Clause,
  type GroupKeySql,
  type Lang,
} from '../odsql/index.js';

export type FacetSort = 'count' | '-count' | 'alphanum' | '-alphanum' | 'num' | '-num';
export const FACET_SORTS: readonly FacetSort[] = ['count', '-count', 'alphanum', '-alphanum', 'num', '-num'];

/** A facet as enumerated and refined: `path` facets nest on `separator` (dates on year/month/day). */
export interface FacetField {
  readonly field: Field;
  readonly kind: 'plain' | 'hierarchical' | 'date';
  readonly separator: string;
  readonly disjunctive: boolean;
  readonly sort: FacetSort;
  readonly multivalued: boolean;
}

/** How a facet's values are nested and sorted, whatever it counts. */
export type FacetShape = Omit<FacetField, 'field'>;

const isDate = (field: Field): boolean => field.type === 'date' || field.type === 'datetime';

/** What a `facet(...)` request parameter may change of a field's facet behaviour. */
export interface FacetOverrides {
  readonly disjunctive?: boolean;
  readonly hierarchical?: boolean;
  readonly separator?: string;
  readonly sort?: FacetSort;
}

/** One facet a request asks for: a field with its facet() options. */
export interface FacetRequest extends FacetOverrides {
  readonly name: string;
  readonly limit?: number;
}

/** The facet behaviour of a field from its annotations, with a request's overrides. */
export function facetField(field: Field, overrides: FacetOverrides = {}): FacetField {
  const { annotations } = field;
  const hierarchical = overrides.hierarchical ?? annotations.hierarchical !== undefined;
  const kind = isDate(field) ? 'date' : hierarchical ? 'hierarchical' : 'plain';
  const annotatedSort = annotations.facetsort?.[0] as FacetSort | undefined;
  return {
    field,
    kind,
    separator: kind === 'date' ? '/' : (overrides.separator ?? annotations.hierarchical?.[0] ?? '/'),
    disjunctive: overrides.disjunctive ?? annotations.disjunctive !== undefined,
    sort:
      overrides.sort ??
      (annotatedSort && FACET_SORTS.includes(annotatedSort)
        ? annotatedSort
        : kind === 'date'
          ? 'alphanum'
          : '-count'),
    multivalued: annotations.multivalued !== undefined,
  };
}

/** The field a facet name designates in `source`, or a QueryLangError naming `clause`. */
export function requireFacetField(source: QuerySource, name: string, clause: Clause): Field {
  const field = findField(source.fields, name);
  if (!field) throw new QueryLangError(`Unknown field: ${name}`, [clause]);
  if (
    field.type === 'geo_point_2d' ||
    field.type === 'geo_shape' ||
    field.type === 'json_blob' ||
    field.type === 'file'
  ) {
    throw new QueryLangError(`Field ${name} of type ${field.type} cannot be used as a facet`, [clause]);
  }
  return field;
}

/** What a facet name designates: a field, or a function of fields as group_by takes it (`range(delay, 10)`). */
export type FacetTarget =
  | { readonly kind: 'field'; readonly field: Field }
  | { readonly kind: 'function'; readonly key: GroupKeySql };

/** Field names are identifiers: a name with a parenthesis is a function call. */
const isCall = (name: string): boolean => /^\s*\w+\s*\(/.test(name);

/** The target of a `facet` parameter in `source`, or a QueryLangError naming the facet parameter. */
export function requireFacetTarget(
  source: QuerySource,
  name: string,
  options: { timezone: string; lang?: Lang },
): FacetTarget {
  if (!isCall(name)) return { kind: 'field', field: requireFacetField(source, name, 'facet') };
  return { kind: 'function', key: compileGroupKey(source, name, { clause: 'facet', ...options }) };
}

/** The shape of a facet on a function: plain values, `-count` unless the request sorts them. */
export function functionFacetShape(request: FacetOverrides): FacetShape {
  return {
    kind: 'plain',
    separator: '/',
    disjunctive: false,
    sort: request.sort ?? '-count',
    multivalued: false,
  };
}
