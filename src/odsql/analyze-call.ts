// Checks a function call against the registry: the entry whose arity fits, each argument against its kind.
import { node, type Call, type Expr } from './ast.js';
import { spells, unavailable } from './dialect/dialect.js';
import { QueryLangError } from './errors.js';
import { describe, plain, type Analyzer } from './expr-info.js';
import { lookupFunction } from './functions/index.js';
import { ARG_KINDS, type Arg } from './functions/registry.js';

/** Picks the entry whose parameters fit the call, then checks each argument against its kind. */
export function analyzeCall(expr: Call, analyzer: Analyzer): Expr {
  const entries = lookupFunction(expr.name);
  const entry = entries.find((e) => e.params(expr.args.length) !== null);
  if (!entry) {
    const arities = entries.map((e) => e.arity).join(' or ');
    throw new QueryLangError(
      `Function ${expr.name}() expects ${arities} argument(s), got ${expr.args.length}`,
    );
  }
  if (expr.distinct && !entry.distinct) throw new QueryLangError(`DISTINCT is not allowed in ${expr.name}()`);
  if (entry.kind === 'declaration') {
    throw new QueryLangError(`${expr.name}() can only be used alone in select, not inside an expression`);
  }
  if (!spells(analyzer.dialect, entry)) throw unavailable(`${entry.name}()`, analyzer.dialect);
  const kinds = entry.params(expr.args.length) ?? [];
  const args = expr.args.map((arg, i) => analyzeArg(arg, kinds[i]!, expr, i, analyzer));
  entry.check?.(args);
  analyzer.spend((entry.cost?.(args) ?? 1) - 1);
  if (
    entry.kind === 'aggregate' &&
    args.some((a) => a.type !== null && analyzer.facts.get(a.node)?.aggregate)
  ) {
    throw new QueryLangError(`Aggregation ${expr.name}() cannot contain another aggregation`);
  }
  const rewritten = args.every((a, i) => a.node === expr.args[i])
    ? expr
    : node.call(
        expr.name,
        args.map((a) => a.node),
        expr.distinct,
        expr.span,
      );
  const aggregate =
    entry.kind === 'aggregate' || args.some((a) => analyzer.facts.get(a.node)?.aggregate === true);
  return analyzer.record(rewritten, { ...plain(entry.returns(args), aggregate), entry, args });
}

function analyzeArg(
  arg: Expr,
  kind: keyof typeof ARG_KINDS,
  call: Call,
  index: number,
  analyzer: Analyzer,
): Arg {
  const spec = ARG_KINDS[kind];
  let analyzed: Arg = { node: arg, type: null, multivalued: false, field: null };
  if (spec.mode === 'value' && arg.kind !== 'star') {
    const resolved = analyzer.analyze(arg);
    const info = analyzer.infoOf(resolved);
    analyzed = { node: resolved, type: info.type, multivalued: info.multivalued, field: info.field };
  }
  if (!spec.accepts(analyzed)) {
    const many = analyzed.multivalued ? ', which is multivalued' : '';
    const got = analyzed.type ? `, got ${describe(analyzed.node, analyzed.type)}${many}` : '';
    throw new QueryLangError(
      `Function ${call.name}() expects ${spec.describe} as argument ${index + 1}${got}`,
    );
  }
  return analyzed;
}
