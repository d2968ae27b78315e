// One group_by key compiled on its own, for callers that group rows themselves: facets on a
// function (`facet=range(delay, 10)`, `facet=year(date)`) count their buckets with the other
// facets in one GROUPING SETS scan, so they need the key's SQL rather than a whole query.
import { isMultivalued } from '../catalog/schema.js';
import type { QuerySource } from './source.js';
import { childrenOf, type Expr } from './ast.js';
import { analyzeQuery } from './analyze.js';
import { compileGroup } from './compile.js';
import { duckdbDialect } from './dialect/duckdb/dialect.js';
import { QueryLangError, type Clause } from './errors.js';
import type { Lang } from './functions/date.js';
import { parseGroupBy } from './parse.js';
import { presentValue } from './present.js';
import { findField } from './scope.js';
import type { GroupKeySql } from './facet-key.js';

function fieldsOf(expr: Expr, names: Set<string> = new Set()): Set<string> {
  if (expr.kind === 'field') names.add(expr.name);
  for (const child of childrenOf(expr)) fieldsOf(child, names);
  return names;
}

/**
 * Compiles `text`, one group_by key without label, over `source`; errors are QueryLangErrors
 * naming `clause`. A key that needs aggregation (geo_cluster) or that reads a multivalued field
 * is refused: it has no value per row.
 */
export function compileGroupKey(
  source: QuerySource,
  text: string,
  options: { clause: Clause; timezone: string; lang?: Lang },
): GroupKeySql {
  try {
    const items = parseGroupBy(text);
    if (items.length !== 1 || items[0]!.label !== null) {
      throw new QueryLangError(`Expected one expression without a label, got ${text}`);
    }
    const groupBy = { text, items };
    const dialect = source.dialect ?? duckdbDialect;
    const query = analyzeQuery(
      source.fields,
      { select: null, where: [], groupBy, orderBy: null },
      options.timezone,
      dialect,
    );
    const key = query.groupBy[0]!;
    const fields = [...fieldsOf(key.expr)].flatMap((name) => findField(source.fields, name) ?? []);
    const multivalued = fields.find(isMultivalued)?.name;
    if (multivalued !== undefined) {
      throw new QueryLangError(
        `${text} reads ${multivalued}, a multivalued field, which has no single value per record`,
      );
    }
    // lang: compileQuery's default; rowIdentity: no groupable function reads it.
    const lang = options.lang ?? 'fr';
    const ctx = {
      dialect,
      source,
      timezone: options.timezone,
      lang,
      output: 'json',
      rowIdentity: '0',
    } as const;
    const group = compileGroup(query, key, { facts: query.facts, ctx, groupKeys: new Map() });
    if (group.type === 'json' || group.type === 'geo_point_2d' || group.type === 'geo_shape') {
      throw new QueryLangError(`${text} has no text value to count`);
    }
    const label = dialect.toText(presentValue(group.output, group.type, ctx));
    const inside = (sql: string) => (group.filter ? `CASE WHEN ${group.filter} THEN ${sql} END` : sql);
    return { group: inside(group.group), text: inside(label), fields: fields.map((f) => f.name) };
  } catch (error) {
    if (!(error instanceof QueryLangError)) throw error;
    throw new QueryLangError(error.problem, [options.clause], error.syntax);
  }
}
