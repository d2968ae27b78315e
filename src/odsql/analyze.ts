// The analyzer: resolves every clause of a query against the dataset schema, types it, and
// enforces the clause rules (what may appear where, grouping, order of aggregations) and limits.
import type { Field } from '../catalog/schema.js';
import { exprKey, node, type Expr, type Item, type OrderItem } from './ast.js';
import { ExprAnalyzer } from './analyze-expr.js';
import type { Dialect } from './dialect/dialect.js';
import type { Analysis, ExprInfo } from './expr-info.js';
import { checkClauseRules, checkGroupedRules, isGroupable } from './clause-rules.js';
import { QueryLangError, type Clause } from './errors.js';
import { lookupFunction } from './functions/index.js';
import { checkTreeLimits, type NodeBudget } from './limits-check.js';
import { QueryScope, findField } from './scope.js';
import type { TechnicalColumn } from './technical.js';
import { isGeo } from './types.js';

/** One clause as parsed, with its text (output keys are expressions as written). */
export interface ParsedItems<T> {
  readonly text: string;
  readonly items: readonly T[];
}

/** A condition and the request parameter its errors name: parsed `where`, or built by code (refine, exclude, v1). */
export interface ClauseCondition {
  readonly expr: Expr;
  readonly clause: Clause;
}

export interface ParsedQuery {
  readonly select: ParsedItems<Item> | null;
  readonly where: readonly ClauseCondition[];
  readonly groupBy: ParsedItems<Item> | null;
  readonly orderBy: ParsedItems<OrderItem> | null;
}

/** An output column or a group key: its key in the results and its analyzed expression. */
export interface KeyedExpr {
  readonly key: string;
  readonly expr: Expr;
}

export interface OrderKey {
  readonly expr: Expr;
  readonly descending: boolean;
}

export interface AnalyzedQuery {
  readonly outputs: readonly KeyedExpr[];
  readonly where: readonly Expr[];
  readonly groupBy: readonly KeyedExpr[];
  readonly orderBy: readonly OrderKey[];
  /** Aggregated rows: a group_by, or aggregations in select (one group). */
  readonly grouped: boolean;
  /** Multivalued fields of group_by: grouped by element, so the rows are unnested first. */
  readonly unnested: readonly string[];
  readonly facts: Analysis;
}

/** The query's names, each clause with its expression analyzer. */
type Scope = QueryScope<ExprAnalyzer>;

let analyses = 0;

/** Queries analyzed by this process so far: what tests count the work of a request by. */
export const analysesSoFar = (): number => analyses;

/**
 * Analyzes a parsed query against a dataset's fields (then its technical ones); `timezone` types
 * date literals, and a function `dialect` does not spell is refused.
 */
export function analyzeQuery(
  fields: readonly Field[],
  parsed: ParsedQuery,
  timezone: string,
  dialect: Dialect,
  technical: readonly TechnicalColumn[] = [],
): AnalyzedQuery {
  analyses++;
  const budget: NodeBudget = { used: 0 };
  checkLimits(parsed, budget);
  const facts = new Map<Expr, ExprInfo>();
  const scope = new QueryScope<ExprAnalyzer>(
    fields,
    labelsOf(parsed.select),
    labelsOf(parsed.groupBy),
    budget,
    technical,
  );
  for (const clause of ['select', 'where', 'group_by', 'order_by'] as const) {
    scope.analyzers.set(
      clause,
      new ExprAnalyzer(facts, (ref) => scope.resolve(ref, clause), timezone, dialect, budget),
    );
  }
  const groupBy = inClause('group_by', () => analyzeGroupBy(parsed.groupBy, scope));
  const where = parsed.where.map((c) => inClause(c.clause, () => analyzeCondition(c.expr, scope)));
  const keys = new Set(groupBy.map((g) => exprKey(g.expr)));
  const select = inClause('select', () => analyzeSelect(parsed.select, scope, groupBy.length > 0));
  const grouped = groupBy.length > 0 || select.some((o) => facts.get(o.expr)?.aggregate === true);
  inClause('select', () =>
    select.forEach((o) => {
      checkClauseRules(o.expr, 'select', keys, facts);
      if (grouped) checkGroupedRules(o.expr, keys, facts);
    }),
  );
  const orderBy = inClause('order_by', () => analyzeOrderBy(parsed.orderBy, scope, grouped, keys));
  const outputs = grouped ? [...groupBy.filter((g) => !representedIn(g, select)), ...select] : select;
  return { outputs, where, groupBy, orderBy, grouped, unnested: [...scope.unnested], facts };
}

function checkLimits(parsed: ParsedQuery, budget: NodeBudget): void {
  const check = (clause: Clause, exprs: readonly Expr[]) =>
    inClause(clause, () => exprs.forEach((e) => checkTreeLimits(e, budget)));
  check('select', parsed.select?.items.map((i) => i.expr) ?? []);
  parsed.where.forEach((c) => check(c.clause, [c.expr]));
  check('group_by', parsed.groupBy?.items.map((i) => i.expr) ?? []);
  check('order_by', parsed.orderBy?.items.map((i) => i.expr) ?? []);
}

function inClause<T>(clause: Clause, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw error instanceof QueryLangError ? error.inClause(clause) : error;
  }
}

function labelsOf(clause: ParsedItems<Item> | null): Map<string, Item> {
  const labels = new Map<string, Item>();
  for (const item of clause?.items ?? []) if (item.label !== null) labels.set(item.label, item);
  return labels;
}

/** The output key of an item: its label, a field's name, else the expression as written (`count(*)`). */
function keyOf(item: Item, text: string, fields: readonly Field[] = []): string {
  if (item.label !== null) return item.label;
  if (item.expr.kind === 'field') return findField(fields, item.expr.name)?.name ?? item.expr.name;
  return text.slice(item.span.start, item.span.end).trim();
}

const representedIn = (group: KeyedExpr, outputs: readonly KeyedExpr[]): boolean =>
  outputs.some((o) => o.key === group.key || exprKey(o.expr) === exprKey(group.expr));

function analyzeGroupBy(clause: ParsedItems<Item> | null, scope: Scope): KeyedExpr[] {
  const analyzer = scope.analyzers.get('group_by')!;
  const keys = (clause?.items ?? []).map((item) => {
    const expr = scope.analyzeItem(item, 'group_by');
    const info = analyzer.infoOf(expr);
    checkClauseRules(expr, 'group_by', new Set(), analyzer.facts);
    if (!isGroupable(expr, analyzer.facts)) {
      throw new QueryLangError(`${keyOf(item, clause!.text)} cannot be used in group_by`);
    }
    if (info.multivalued && expr.kind === 'field') {
      scope.unnested.add(expr.name);
      analyzer.record(expr, { ...info, multivalued: false });
    }
    return { key: keyOf(item, clause!.text, scope.fields), expr };
  });
  return dedupe(keys);
}

/** Turns the boolean positions of a where expression's bare strings into full-text searches. */
function asCondition(expr: Expr): Expr {
  if (expr.kind === 'string') return node.call('search', [node.star(expr.span), expr], false, expr.span);
  if (expr.kind === 'not') return node.not(asCondition(expr.operand), expr.span);
  if (expr.kind === 'logical') return node.logical(expr.op, expr.operands.map(asCondition), expr.span);
  return expr;
}

function analyzeCondition(raw: Expr, scope: Scope): Expr {
  const analyzer = scope.analyzers.get('where')!;
  const expr = analyzer.condition(asCondition(raw), 'where');
  checkClauseRules(expr, 'where', new Set(), analyzer.facts);
  return expr;
}

function analyzeSelect(clause: ParsedItems<Item> | null, scope: Scope, hasGroupBy: boolean): KeyedExpr[] {
  const items = clause?.items ?? [];
  const declarations = items.filter(isDeclaration);
  const others = items.filter((i) => !isDeclaration(i));
  const implicitStar = others.length === 0 && (declarations.length > 0 || !hasGroupBy);
  const outputs: KeyedExpr[] = [];
  const analyzer = scope.analyzers.get('select')!;
  for (const item of implicitStar ? [null] : others) {
    if (item === null || item.expr.kind === 'star') {
      if (item?.label) throw new QueryLangError('* cannot take a label');
      outputs.push(...starFields(scope.fields, declarations).map((f) => keyedField(f, analyzer)));
      continue;
    }
    const expr = scope.analyzeItem(item, 'select');
    outputs.push({ key: keyOf(item, clause!.text, scope.fields), expr });
  }
  return dedupe(outputs);
}

function isDeclaration(item: Item): boolean {
  if (item.expr.kind !== 'call' || !['include', 'exclude'].includes(item.expr.name)) return false;
  if (item.label !== null) throw new QueryLangError(`${item.expr.name}() cannot take a label`);
  const [entry] = lookupFunction(item.expr.name);
  const arg = item.expr.args[0];
  if (item.expr.args.length !== 1 || !arg || !entry || (arg.kind !== 'pattern' && arg.kind !== 'field')) {
    throw new QueryLangError(`${item.expr.name}() expects one field name, optionally ending with *`);
  }
  return true;
}

/** The fields of `*` in schema order, narrowed by include() and exclude(). */
function starFields(fields: readonly Field[], declarations: readonly Item[]): Field[] {
  const patterns = (name: string) =>
    declarations.flatMap((d) => (d.expr.kind === 'call' && d.expr.name === name ? d.expr.args : []));
  const matches = (field: Field, arg: Expr) =>
    arg.kind === 'pattern'
      ? field.name.startsWith(arg.prefix)
      : arg.kind === 'field' && findField([field], arg.name) !== null;
  const includes = patterns('include');
  const excludes = patterns('exclude');
  return fields.filter(
    (f) =>
      (includes.length === 0 || includes.some((p) => matches(f, p))) && !excludes.some((p) => matches(f, p)),
  );
}

function keyedField(field: Field, analyzer: ExprAnalyzer): KeyedExpr {
  return { key: field.name, expr: analyzer.analyze(node.field(field.name, true)) };
}

/**
 * The same output twice is kept once; two different outputs under one key are an error, and so
 * are two keys that differ only in case, which DuckDB (and every export) would take as one.
 */
function dedupe(outputs: readonly KeyedExpr[]): KeyedExpr[] {
  const byKey = new Map<string, KeyedExpr>();
  for (const output of outputs) {
    const key = output.key.toLowerCase();
    const seen = byKey.get(key);
    if (seen && seen.key !== output.key) {
      throw new QueryLangError(
        `Duplicate output name: ${output.key} (names are case-insensitive: ${seen.key})`,
      );
    }
    if (seen && exprKey(seen.expr) !== exprKey(output.expr)) {
      throw new QueryLangError(`Duplicate output name: ${output.key}`);
    }
    if (!seen) byKey.set(key, output);
  }
  return [...byKey.values()];
}

function analyzeOrderBy(
  clause: ParsedItems<OrderItem> | null,
  scope: Scope,
  grouped: boolean,
  keys: ReadonlySet<string>,
): OrderKey[] {
  const analyzer = scope.analyzers.get('order_by')!;
  let fieldSeen = false;
  return (clause?.items ?? []).map((item) => {
    // `-field` is `field DESC` (supplement 5), whatever the field's type.
    const negatedField = item.expr.kind === 'negate' && item.expr.operand.kind === 'field';
    const raw = negatedField && item.expr.kind === 'negate' ? item.expr.operand : item.expr;
    const expr = analyzer.analyze(raw);
    const info = analyzer.infoOf(expr);
    checkClauseRules(expr, 'order_by', keys, analyzer.facts);
    if (isGeo(info.type) || info.type === 'json') {
      throw new QueryLangError(`Cannot sort on ${keyOfOrder(item, clause!.text)}`);
    }
    if (grouped) checkGroupedRules(expr, keys, analyzer.facts);
    else if (info.aggregate)
      throw new QueryLangError('An aggregation in order_by needs group_by or an aggregated select');
    if (grouped && info.aggregate && fieldSeen) {
      throw new QueryLangError('Aggregations must come before fields in order_by');
    }
    fieldSeen ||= !info.aggregate && info.entry?.kind !== 'ordering';
    return { expr, descending: (item.direction === 'desc') !== negatedField };
  });
}

const keyOfOrder = (item: OrderItem, text: string): string =>
  text.slice(item.span.start, item.span.end).trim();
