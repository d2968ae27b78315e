// A record's id in SQL as the source's caller sees it: the stored id, or its keyed digest.
import { RECORD_ID_COLUMN } from '../catalog/schema.js';
import type { QuerySource } from './source.js';
import type { Dialect } from './dialect/dialect.js';

/** Opaque ids keep 128 bits of the keyed digest. */
const OPAQUE_ID_LENGTH = 32;

/** The SQL of a row's record id: plain, or its keyed digest (src/auth/record-ids.ts). */
export function recordIdSql(source: QuerySource, dialect: Dialect): string {
  const column = dialect.quoteIdentifier(RECORD_ID_COLUMN);
  if (!source.recordIdKey) return column;
  return dialect.keyedDigest(dialect.quoteString(source.recordIdKey), column, OPAQUE_ID_LENGTH);
}

/** The condition keeping only the record of id `id` (the single-record operation). */
export function recordIdCondition(source: QuerySource, dialect: Dialect, id: string): string {
  return `${recordIdSql(source, dialect)} = ${dialect.quoteString(id)}`;
}
