// Registry entries of the where predicates: full-text (search, suggest, startswith) and geo filters
// (their DuckDB spelling: dialect/duckdb/search.ts and geo.ts).
import type { Expr } from '../ast.js';
import { QueryLangError } from '../errors.js';
import { distanceInMeters, parseDistance, parseGeometryLiteral } from './geo.js';
import { queryTerms } from '../../search/tokens.js';
import { MAX_SEARCH_TERMS } from '../limits.js';
import { fixed, type Arg, type FunctionEntry } from './registry.js';

const WHERE = ['where'] as const;

/**
 * Each call's cost is its planning time measured with DuckDB 1.5, in comparison-equivalents
 * (bench/README.md, Measurements behind the code); a polygon grows with its vertices. So the
 * 2000-node budget stays near a second of planning whatever the mix.
 */
const SEARCH_COST = 40;
const GEO_COST = 10;
const SHAPE_COST = 40;
const geometryCost = (args: readonly Arg[]): number =>
  (args[0]?.type === 'geo_shape' ? SHAPE_COST : GEO_COST) +
  args.reduce((sum, a) => sum + (a.node.kind === 'geometry' ? Math.ceil(a.node.text.length / 20) : 0), 0);

/** search(f1, f2, ..., 'text'): fields or * first, the text last; no field at all means *. */
const fieldsThenText = (count: number) =>
  count >= 1
    ? [...Array.from({ length: count - 1 }, () => 'text_field_or_star' as const), 'string' as const]
    : null;

export const textOf = (arg: Arg | undefined): string => (arg?.node.kind === 'string' ? arg.node.value : '');

/** A search's terms are capped: each costs a vocabulary scan (limits.ts MAX_SEARCH_TERMS). */
function checkSearchTerms(args: readonly Arg[]): void {
  const terms = queryTerms(textOf(args[args.length - 1])).length;
  if (terms > MAX_SEARCH_TERMS) {
    throw new QueryLangError(`Too many search terms: ${terms} (at most ${MAX_SEARCH_TERMS} per search)`);
  }
}

export function searchFields(args: readonly Arg[]): readonly string[] | '*' {
  const fields = args.slice(0, -1);
  if (fields.length === 0 || fields.some((a) => a.node.kind === 'star')) return '*';
  return fields.map((a) => a.field!.name);
}

export const geometryOf = (node: Expr | undefined) =>
  parseGeometryLiteral(node?.kind === 'geometry' ? node.text : '');
/** Meters of a distance argument, from its value and unit (no text round trip: 1e-7m is 1e-7 m). */
export const metersOf = (node: Expr | undefined): number =>
  node?.kind === 'quantity' ? distanceInMeters(node.value, node.unit) : parseDistance('');
export const geoType = (arg: Arg | undefined) =>
  arg?.type === 'geo_point_2d' ? 'geo_point_2d' : 'geo_shape';
export const numberOf = (arg: Arg | undefined): number => (arg?.node.kind === 'number' ? arg.node.value : 0);

/** Literal arguments are parsed during analysis so that their errors name the clause. */
function checkGeoLiterals(args: readonly Arg[]): void {
  for (const { node } of args) {
    if (node.kind === 'geometry') parseGeometryLiteral(node.text);
    if (node.kind === 'quantity') metersOf(node);
  }
}

const withinDistance = (name: string): FunctionEntry => ({
  name,
  kind: 'predicate',
  clauses: WHERE,
  params: fixed('geo', 'geometry', 'distance'),
  arity: '3',
  check: checkGeoLiterals,
  cost: () => GEO_COST,
  returns: () => 'boolean',
});

const spatial = (op: 'intersects' | 'disjoint' | 'within'): FunctionEntry => ({
  name: op,
  kind: 'predicate',
  clauses: WHERE,
  params: fixed('geo', 'geometry'),
  arity: '2',
  check: checkGeoLiterals,
  cost: geometryCost,
  returns: () => 'boolean',
});

export function relationOf(arg: Arg | undefined): 'intersects' | 'disjoint' | 'within' {
  const name = arg?.node.kind === 'field' ? arg.node.name.toLowerCase() : '';
  if (name === 'intersects' || name === 'disjoint' || name === 'within') return name;
  throw new QueryLangError('geometry() expects INTERSECTS, DISJOINT or WITHIN as argument 3');
}

export const PREDICATE_FUNCTIONS: readonly FunctionEntry[] = [
  ...(['search', 'suggest'] as const).map((mode): FunctionEntry => ({
    name: mode,
    kind: 'predicate',
    clauses: WHERE,
    params: fieldsThenText,
    arity: 'a text, after optional fields or *,',
    check: checkSearchTerms,
    // Each term is one more scan of the index's vocabulary and one more INTERSECT.
    cost: (args) => SEARCH_COST * Math.max(1, queryTerms(textOf(args[args.length - 1])).length),
    returns: () => 'boolean',
  })),
  {
    name: 'startswith',
    kind: 'predicate',
    clauses: WHERE,
    params: fixed('text_field_or_star', 'string'),
    arity: '2',
    returns: () => 'boolean',
  },
  withinDistance('within_distance'),
  // v2.0 spelling of within_distance, still accepted (supplement 5).
  withinDistance('distance'),
  {
    name: 'in_bbox',
    kind: 'predicate',
    clauses: WHERE,
    params: fixed('geo', 'number_literal', 'number_literal', 'number_literal', 'number_literal'),
    arity: '5',
    cost: () => GEO_COST,
    returns: () => 'boolean',
  },
  spatial('intersects'),
  spatial('disjoint'),
  spatial('within'),
  // v2.0 spelling of within() (supplement 7): polygon(f, geom'POLYGON(...)').
  { ...spatial('within'), name: 'polygon' },
  {
    // v2.0: geometry(f, geom'...', INTERSECTS|DISJOINT|WITHIN).
    name: 'geometry',
    kind: 'predicate',
    clauses: WHERE,
    params: fixed('geo', 'geometry', 'spatial_relation'),
    arity: '3',
    check: checkGeoLiterals,
    cost: geometryCost,
    returns: () => 'boolean',
  },
];
