// v1 request parameters and their translation into the ODSQL parameters and facet requests of v2.1.
import { z } from 'zod';
import type { QuerySource } from '../../odsql/source.js';
import type { Engine } from '../../engine/engine.js';
import type { JsonValue } from '../../engine/engine.js';
import {
  type ClauseCondition,
  type CompiledQuery,
  type Expr,
  type QueryParams,
  LANGS,
} from '../../odsql/index.js';
import { refinementConditions, type Refinement } from '../../facets/refine.js';
import { enumerateFacets, type FacetGroup, type FacetRequest } from '../../facets/enumerate.js';
import { FACET_SORTS, type FacetOverrides, type FacetSort } from '../../facets/facet-fields.js';
import { invalidParameter } from '../../http/errors.js';
import { booleanValue, facetList, integer, notBoolean, oneOf, repeated, text, timezone } from '../params.js';
import { geoConditions } from './geofilter.js';
import { parseV1Query } from './q-language/index.js';
import { orderByOf, selectOf } from './v1-clauses.js';

/** start + rows never reaches past the first 10,000 results (supplement 6). */
export const V1_WINDOW = 10_000;

/** Parameters common to the v1 searches (records and datasets). */
export const v1SearchParams = z.object({
  /** Repeatable; `q.<name>` parameters (the explore pages' named filters) are ANDed with it. */
  q: repeated(),
  /** -1: the largest page the 10,000 window allows (`v1Request`). */
  rows: integer('rows', { min: -1, max: V1_WINDOW, default: 10 }),
  start: integer('start', { min: 0, max: V1_WINDOW, default: 0 }),
  sort: repeated(),
  facet: facetList(),
  lang: oneOf('lang', LANGS, undefined),
  /** v1's name of `lang` (explore-api.md, v1 record search); `lang` wins when both are sent. */
  language: oneOf('language', LANGS, undefined),
  timezone: timezone(),
});

/** Parameters of the record search (and of the download, minus the page). */
export const v1RecordsParams = v1SearchParams.extend({
  dataset: text(),
  fields: text(),
  'geofilter.distance': text(),
  'geofilter.polygon': text(),
  'geofilter.bbox': text(),
});

export type V1SearchParams = z.output<typeof v1SearchParams>;
export type V1RecordsParams = z.output<typeof v1RecordsParams>;

/** The output language of a v1 request: `lang`, else `language`. */
export const languageOf = (params: Partial<V1SearchParams>): (typeof LANGS)[number] | undefined =>
  params.lang ?? params.language;

/** `refine.<facet>`, `exclude.<facet>`, `disjunctive.<facet>`, `facetsort.<facet>`, gathered. */
export interface FacetParams {
  readonly refinements: Refinement[];
  readonly refine: Record<string, string[]>;
  readonly exclude: Record<string, string[]>;
  readonly overrides: Map<string, FacetOverrides>;
}

/** The per-facet parameters of a query string (names after the dot are facet names). */
export function facetParamsOf(query: Record<string, string | string[] | undefined>): FacetParams {
  const refine: Record<string, string[]> = {};
  const exclude: Record<string, string[]> = {};
  const overrides = new Map<string, FacetOverrides>();
  const values = (raw: string | string[] | undefined) => [raw ?? []].flat().filter((v) => v !== '');
  for (const [key, raw] of Object.entries(query)) {
    const [, kind, facet] = /^(refine|exclude|disjunctive|facetsort)\.(.+)$/.exec(key) ?? [];
    if (!kind || !facet) continue;
    if (kind === 'refine' || kind === 'exclude') (kind === 'refine' ? refine : exclude)[facet] = values(raw);
    const last = values(raw).at(-1);
    if (kind === 'disjunctive' && last !== undefined) {
      const disjunctive = booleanValue(last);
      if (disjunctive === null) throw invalidParameter(key, notBoolean(last));
      overrides.set(facet, { ...overrides.get(facet), disjunctive });
    }
    if (kind === 'facetsort' && last !== undefined) {
      if (!FACET_SORTS.includes(last as FacetSort)) {
        throw invalidParameter(key, `${last} was found but one of ${FACET_SORTS.join(', ')} is expected.`);
      }
      overrides.set(facet, { ...overrides.get(facet), sort: last as FacetSort });
    }
  }
  const refinements = [
    ...Object.entries(refine).flatMap(([facet, vs]) => vs.map((value) => ({ facet, value, exclude: false }))),
    ...Object.entries(exclude).flatMap(([facet, vs]) => vs.map((value) => ({ facet, value, exclude: true }))),
  ];
  return { refinements, refine, exclude, overrides };
}

type RawQuery = Record<string, string | string[] | undefined>;

/** Every q of a request, in order: `q` (repeatable) and `q.<name>`; all of them apply. */
export function queriesOf(query: RawQuery): string[] {
  return Object.entries(query)
    .filter(([name]) => name === 'q' || name.startsWith('q.'))
    .flatMap(([, raw]) => [raw ?? []].flat())
    .filter((q) => q.trim() !== '');
}

/** `q` as the answer's `parameters` echo it: the text, or the list when repeated. */
export const echoedQ = (q: readonly string[]): { q?: string | readonly string[] } =>
  q.length === 0 ? {} : { q: q.length === 1 ? q[0]! : q };

/** A v1 search's parameters with every q gathered and `rows=-1` read as the largest page allowed. */
export function v1Request<T extends { rows: number; start: number }>(
  params: T,
  query: RawQuery,
): T & { queries: string[] } {
  const rows = params.rows === -1 ? Math.max(V1_WINDOW - params.start, 0) : params.rows;
  return { ...params, rows, queries: queriesOf(query) };
}

/** The conditions of q and the geofilters (refinements are added by `v1QueryParams`). */
export function filterConditions(
  source: QuerySource,
  params: Partial<V1RecordsParams> & { queries: readonly string[] },
): (Expr | ClauseCondition)[] {
  return [...params.queries.map((q) => parseV1Query(source, q)), ...geoConditions(source, params)];
}

/** The ODSQL parameters of a v1 search over `source` (no page: the caller adds it). */
export function v1QueryParams(
  source: QuerySource,
  params: Partial<V1RecordsParams> & { timezone: string; sort: string[]; queries: readonly string[] },
  facets: FacetParams,
): QueryParams {
  const refinements: ClauseCondition[] = refinementConditions(source, facets.refinements, {
    timezone: params.timezone,
    overrides: facets.overrides,
  });
  const select = selectOf(source, params.fields);
  const orderBy = orderByOf(source, params.sort, params['geofilter.distance']);
  const lang = languageOf(params);
  return {
    extraWhere: [...filterConditions(source, params), ...refinements],
    ...(select !== undefined && { select }),
    ...(orderBy !== undefined && { orderBy }),
    ...(lang !== undefined && { lang }),
    timezone: params.timezone,
  };
}

/** The facet requests of `facet=` parameters, with the disjunctive/facetsort overrides. */
export function facetRequests(names: readonly string[], facets: FacetParams): FacetRequest[] {
  return names.map((name) => ({ name, ...facets.overrides.get(name) }));
}

/** The page of a v1 search; start + rows past 10,000 is refused. */
export function v1Page(params: { rows: number; start: number }): { limit: number; offset: number } {
  if (params.start + params.rows > V1_WINDOW) {
    throw invalidParameter(
      'start',
      `${params.start} was found but start + rows <= ${V1_WINDOW} is expected (rows is ${params.rows}).`,
    );
  }
  return { limit: params.rows, offset: params.start };
}

/** What a v1 search answers: the count, the page's rows, and the facet groups asked for. */
export interface V1SearchResult {
  readonly nhits: number;
  readonly rows: Record<string, JsonValue>[];
  readonly groups: FacetGroup[] | null;
}

/**
 * Runs a compiled v1 search over `source`: count, page (skipped when `rows` is 0) and facets
 * (counted under q, the geofilters and the refinements), side by side.
 */
export async function runV1Search(
  engine: Engine,
  source: QuerySource,
  compiled: CompiledQuery,
  params: Partial<V1RecordsParams> & V1SearchParams & { queries: readonly string[] },
  facets: FacetParams,
  signal: AbortSignal,
): Promise<V1SearchResult> {
  const lang = languageOf(params);
  const [nhits, rows, groups] = await Promise.all([
    engine.count(compiled.countSql, signal),
    params.rows > 0 ? engine.queryJson(compiled.sql, [], signal) : Promise.resolve([]),
    params.facet.length
      ? enumerateFacets(
          engine,
          source,
          {
            facets: facetRequests(params.facet, facets),
            where: filterConditions(source, params),
            refinements: facets.refinements,
            timezone: params.timezone,
            ...(lang && { lang }),
          },
          signal,
        )
      : Promise.resolve(null),
  ]);
  return { nhits, rows, groups };
}
