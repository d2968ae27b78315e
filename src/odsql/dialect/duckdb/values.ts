// DuckDB's spelling of literals, casts, null-aware logic and text containment.
import type { Dialect } from '../dialect.js';

type Values = Pick<
  Dialect,
  'boolean' | 'negate' | 'toDouble' | 'toText' | 'not' | 'isTrue' | 'isFalse' | 'containsText' | 'keyedDigest'
>;

export const VALUES: Values = Object.freeze({
  boolean: (value: boolean) => (value ? 'TRUE' : 'FALSE'),
  negate: (sql: string) => `(- ${sql})`,
  toDouble: (sql: string) => `CAST(${sql} AS DOUBLE)`,
  toText: (sql: string) => `CAST(${sql} AS VARCHAR)`,
  not: (sql: string) => `(NOT coalesce(${sql}, false))`,
  isTrue: (sql: string) => `(${sql} IS TRUE)`,
  isFalse: (sql: string) => `(${sql} IS FALSE)`,
  containsText: (text: string, pattern: string) => `contains(lower(${text}), lower(${pattern}))`,
  keyedDigest: (key: string, value: string, digits: number) => `left(sha256(${key} || ${value}), ${digits})`,
});
