// Facet enumeration: the values of every requested facet with their counts under the request's
// filters, nested for hierarchies and dates. Scalar facets sharing one filter are counted in a
// single scan (GROUPING SETS); a multivalued facet, or a disjunctive facet whose own refinements
// must be left out, gets its own statement; all statements run side by side.
import type { QuerySource } from '../catalog/source.js';
import type { Engine } from '../engine/engine.js';
import { compileQuery, type Lang } from '../odsql/index.js';
import { localTimestamp } from '../odsql/functions/date-sql.js';
import { quoteIdentifier, quoteString } from '../sql-text.js';
import { facetField, requireFacetField, type FacetField, type FacetRequest } from './facet-fields.js';
import { datePathRange } from './refine.js';
import { selectionConditions, type FacetSelection } from './facet-selection.js';
import { buildTree, type FacetGroup, type LevelCounts } from './tree.js';

export type { FacetGroup, FacetValue } from './tree.js';
export type { FacetRequest } from './facet-fields.js';

export interface FacetQuery extends FacetSelection {
  readonly where: readonly string[];
  readonly timezone: string;
  readonly lang?: Lang;
}

/** Default number of values per facet level (supplement 2). */
export const DEFAULT_FACET_LIMIT = 100;

interface Planned {
  readonly facet: FacetField;
  readonly limit: number;
  /** Levels counted: 1 for plain facets, one more than the deepest refined path for the others. */
  readonly levels: number;
  readonly refined: ReadonlySet<string>;
  readonly excluded: ReadonlySet<string>;
}

/** A path value in canonical form: date parts zero-padded (`2013/2` -> `2013/02`). */
function canonical(facet: FacetField, value: string): string {
  if (facet.kind !== 'date') return value;
  const range = datePathRange(value);
  if (!range) return value;
  const depth = value.split(/[/-]/).length;
  return range.start.split('-').slice(0, depth).join('/');
}

function plan(source: QuerySource, query: FacetQuery): Planned[] {
  const requests: readonly FacetRequest[] =
    query.facets ??
    source.fields.filter((f) => f.annotations.facet !== undefined).map((f) => ({ name: f.name }));
  return requests.map((request) => {
    const field = requireFacetField(source, request.name, 'facet');
    const facet = facetField(field, request);
    const mine = query.refinements.filter(
      (r) => requireFacetField(source, r.facet, 'refine').name === field.name,
    );
    const refined = new Set(mine.filter((r) => !r.exclude).map((r) => canonical(facet, r.value)));
    const excluded = new Set(mine.filter((r) => r.exclude).map((r) => canonical(facet, r.value)));
    const deepest = Math.max(0, ...[...refined].map((v) => v.split(facet.separator).length));
    const levels = facet.kind === 'plain' ? 1 : Math.min(deepest + 1, facet.kind === 'date' ? 3 : 16);
    return { facet, limit: request.limit ?? DEFAULT_FACET_LIMIT, levels, refined, excluded };
  });
}

const DATE_LEVELS = [
  { unit: 'year', format: '%Y' },
  { unit: 'month', format: '%Y/%m' },
  { unit: 'day', format: '%Y/%m/%d' },
] as const;

/**
 * A facet's key at one level (1-based) from the column `column`: what rows are grouped on, and
 * how a group's key becomes its text value (dates are grouped on truncated instants and
 * formatted once per group, which is 4x cheaper than formatting every row).
 */
function keySql(
  planned: Planned,
  column: string,
  level: number,
  timezone: string,
): { group: string; label: (key: string) => string } {
  const { facet } = planned;
  if (facet.kind === 'date') {
    const local = facet.field.type === 'datetime' ? localTimestamp(column, timezone) : column;
    const { unit, format } = DATE_LEVELS[level - 1]!;
    return { group: `date_trunc('${unit}', ${local})`, label: (key) => `strftime(${key}, '${format}')` };
  }
  if (facet.kind === 'hierarchical') {
    const parts = `string_split(${column}, ${quoteString(facet.separator)})`;
    return {
      group: `CASE WHEN len(${parts}) >= ${level} THEN array_to_string(${parts}[1:${level}], ${quoteString(facet.separator)}) END`,
      label: (key) => key,
    };
  }
  return { group: `CAST(${column} AS VARCHAR)`, label: (key) => key };
}

/** One statement: rows (s = index of the counted key, v = value, n = count). */
interface Statement {
  readonly sql: string;
  readonly keys: readonly { facetIndex: number; level: number }[];
}

function statementFor(
  source: QuerySource,
  query: FacetQuery,
  members: readonly { planned: Planned; index: number }[],
  skipFacet: string | undefined,
): Statement {
  const names = [...new Set(members.map((m) => m.planned.facet.field.name))];
  const rows = compileQuery(
    source,
    {
      select: names.map((n) => `\`${n}\``).join(', '),
      where: query.where,
      extraWhere: selectionConditions(source, query, {
        timezone: query.timezone,
        ...(skipFacet !== undefined && { skipFacet }),
      }),
      timezone: query.timezone,
      ...(query.lang && { lang: query.lang }),
      limit: null,
    },
    'native',
  ).sql;
  const keys = members.flatMap((m) =>
    Array.from({ length: m.planned.levels }, (_, i) => ({
      facetIndex: m.index,
      level: i + 1,
      planned: m.planned,
    })),
  );
  const multivalued = members.length === 1 && members[0]!.planned.facet.multivalued;
  const column = (name: string) => (multivalued ? `unnest(${quoteIdentifier(name)})` : quoteIdentifier(name));
  const inner = multivalued
    ? `(SELECT ${column(names[0]!)} AS ${quoteIdentifier(names[0]!)} FROM (${rows}))`
    : `(${rows})`;
  const sqls = keys.map((k) =>
    keySql(k.planned, quoteIdentifier(k.planned.facet.field.name), k.level, query.timezone),
  );
  const ks = keys.map((_, i) => `k${i}`);
  const grouped =
    `SELECT list_position([${ks.map((k) => `grouping(${k})`).join(', ')}], 0) - 1 AS s, ${ks.join(', ')}, count(*) AS n ` +
    `FROM (SELECT ${sqls.map((k, i) => `${k.group} AS k${i}`).join(', ')} FROM ${inner}) ` +
    `GROUP BY GROUPING SETS (${ks.map((k) => `(${k})`).join(', ')})`;
  const value = `CASE s ${sqls.map((k, i) => `WHEN ${i} THEN ${k.label(`k${i}`)}`).join(' ')} END`;
  const sql = `SELECT s, ${value} AS v, n FROM (${grouped})`;
  return { sql, keys: keys.map(({ facetIndex, level }) => ({ facetIndex, level })) };
}

/** The statements of a query: shared scans grouped by the refinements they must leave out. */
function statements(source: QuerySource, query: FacetQuery, planned: readonly Planned[]): Statement[] {
  const groups = new Map<string, { planned: Planned; index: number }[]>();
  planned.forEach((p, index) => {
    const name = p.facet.field.name;
    const skip = p.facet.disjunctive && p.refined.size > 0 ? name : '';
    const group = p.facet.multivalued ? `multivalued:${index}` : `skip:${skip}`;
    groups.set(group, [...(groups.get(group) ?? []), { planned: p, index }]);
  });
  return [...groups.values()].map((members) => {
    const first = members[0]!.planned;
    const skip = first.facet.disjunctive && first.refined.size > 0 ? first.facet.field.name : undefined;
    return statementFor(source, query, members, skip);
  });
}

/** Enumerates the facets of a query over `source`. */
export async function enumerateFacets(
  engine: Engine,
  source: QuerySource,
  query: FacetQuery,
  signal?: AbortSignal,
): Promise<FacetGroup[]> {
  const planned = plan(source, query);
  const counts: LevelCounts[] = planned.map(() => new Map<number, Map<string, number>>());
  const work = statements(source, query, planned);
  const results = await Promise.all(work.map((s) => engine.queryJson(s.sql, [], signal)));
  results.forEach((rows, i) => {
    for (const row of rows) {
      if (typeof row.v !== 'string') continue;
      const key = work[i]!.keys[Number(row.s)]!;
      const levels = counts[key.facetIndex]!;
      const level = levels.get(key.level) ?? new Map<string, number>();
      level.set(row.v, Number(row.n));
      levels.set(key.level, level);
    }
  });
  return planned.map((p, i) =>
    buildTree(p.facet, counts[i]!, { limit: p.limit, refined: p.refined, excluded: p.excluded }),
  );
}
