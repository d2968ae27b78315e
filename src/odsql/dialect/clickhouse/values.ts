// ClickHouse's spelling of literals, casts, operators, null-aware logic and text containment.
// ClickHouse 18.16 has no boolean type: comparisons answer UInt8 0 or 1.
import type { ArithmeticOp } from '../../ast.js';
import type { Dialect } from '../dialect.js';

type Values = Pick<
  Dialect,
  | 'arithmetic'
  | 'boolean'
  | 'negate'
  | 'toDouble'
  | 'toText'
  | 'not'
  | 'isTrue'
  | 'isFalse'
  | 'containsText'
  | 'keyedDigest'
>;

export const VALUES: Values = Object.freeze({
  arithmetic: Object.freeze({
    '+': (l, r) => `(${l} + ${r})`,
    '-': (l, r) => `(${l} - ${r})`,
    '*': (l, r) => `(${l} * ${r})`,
    // Division by zero yields null (explore-api.md), not ClickHouse's infinity.
    '/': (l, r) => `(${l} / nullIf(${r}, 0))`,
  } as const satisfies Record<ArithmeticOp, (left: string, right: string) => string>),
  boolean: (value: boolean) => (value ? '1' : '0'),
  // A product: 18.16 forwards `-(-x)` (and negate(negate(x))) to the shards of a Distributed
  // table as `--x`, a comment. Times -1 keeps -0.0 as DuckDB's negation does.
  negate: (sql: string) => `(${sql} * -1)`,
  toDouble: (sql: string) => `toFloat64(${sql})`,
  toText: (sql: string) => `toString(${sql})`,
  // Not NOT: 18.16 forwards `a <> (NOT b)` to the shards as `a != NOT b`, a syntax error there.
  not: (sql: string) => `(coalesce(${sql}, 0) = 0)`,
  isTrue: (sql: string) => `(coalesce(${sql}, 0) = 1)`,
  isFalse: (sql: string) => `(coalesce(${sql}, 1) = 0)`,
  // DuckDB's contains(lower(text), lower(pattern)), over UTF-8 characters.
  containsText: (text: string, pattern: string) => `(positionCaseInsensitiveUTF8(${text}, ${pattern}) > 0)`,
  // DuckDB's sha256() answers lowercase hex; ClickHouse's SHA256() the 32 bytes.
  keyedDigest: (key: string, value: string, digits: number) =>
    `substring(lower(hex(SHA256(concat(${key}, ${value})))), 1, ${digits})`,
});
