// ODSQL text of the conditions v1 builds, for the facet enumeration, whose query takes `where` text.
import type { Expr } from '../../odsql/index.js';

const odsqlString = (text: string): string => `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** Date and geometry texts are built by v1 from validated digits, so quotes never occur in them. */
const PRINTERS: { [K in Expr['kind']]?: (n: Extract<Expr, { kind: K }>) => string } = {
  string: (n) => odsqlString(n.value),
  number: (n) => String(n.value),
  boolean: (n) => String(n.value),
  null: () => 'null',
  date: (n) => `date'${n.text}'`,
  geometry: (n) => `geom'${n.text}'`,
  quantity: (n) => `${n.value}${n.unit}`,
  field: (n) => `\`${n.name}\``,
  star: () => '*',
  not: (n) => `NOT (${whereText(n.operand)})`,
  logical: (n) => n.operands.map((o) => `(${whereText(o)})`).join(` ${n.op.toUpperCase()} `),
  comparison: (n) => `${whereText(n.left)} ${n.op} ${whereText(n.right)}`,
  is: (n) => `${whereText(n.operand)} IS ${n.test === 'not_null' ? 'NOT NULL' : n.test.toUpperCase()}`,
  in_range: (n) =>
    `${whereText(n.operand)} IN ${n.lowInclusive ? '[' : ']'}${whereText(n.low)}..${whereText(n.high)}${n.highInclusive ? ']' : '['}`,
  member: (n) => `${whereText(n.value)} IN ${whereText(n.field)}`,
  call: (n) => `${n.name}(${n.args.map(whereText).join(', ')})`,
};

/** The ODSQL text of a condition built by v1 (the node kinds v1 builds; others are a bug). */
export function whereText(expr: Expr): string {
  const printer = PRINTERS[expr.kind] as ((n: Expr) => string) | undefined;
  if (!printer) throw new Error(`v1 does not build ${expr.kind} nodes`);
  return printer(expr);
}
