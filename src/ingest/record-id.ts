// The hidden `_recordid` of each row: a field chosen as identifier, or a digest stable across re-ingests of one file.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { FieldType } from '../catalog/schema.js';
import { PLAN_RELATION, type PlannedColumn } from './plan.js';

/** Hex digits kept from the digest: 80 bits, far from collisions at any row count a portal holds. */
const DIGEST_LENGTH = 20;

/** Field types whose text makes an identifier. */
const ID_TYPES: ReadonlySet<FieldType> = new Set(['text', 'int', 'double', 'boolean', 'date', 'datetime']);

/**
 * A digest of the row's ordinal and its source values. The ordinal makes identical rows
 * differ; source values (not converted ones) keep the id stable if inference rules change.
 */
export function digestRecordIdSql(sourceColumns: readonly string[]): string {
  const values = ['__ordinal', ...sourceColumns].map((c) => `CAST(${c} AS VARCHAR)`);
  // substr, not left: the same ASCII digits, 0.86 s of CPU for 3M rows against 0.90 (7 turns each).
  return `substr(md5(concat_ws(chr(31), ${values.join(', ')})), 1, ${DIGEST_LENGTH})`;
}

/** The record id taken from a field's value; refuses a field with an empty or a repeated value. */
export async function fieldRecordIdSql(connection: DuckDBConnection, column: PlannedColumn): Promise<string> {
  if (!ID_TYPES.has(column.type) || column.separator !== null) {
    const kind = column.separator !== null ? 'multivalued' : column.type;
    throw new Error(`--record-id: field "${column.name}" is ${kind}; an identifier must be a single value`);
  }
  const id = `CAST(${column.sql} AS VARCHAR)`;
  const problems = await connection.runAndReadAll(`
    SELECT (SELECT count(*) FROM ${PLAN_RELATION} WHERE ${id} IS NULL),
      (SELECT list(id ORDER BY id) FROM (SELECT ${id} AS id FROM ${PLAN_RELATION} WHERE ${id} IS NOT NULL
        GROUP BY 1 HAVING count(*) > 1 ORDER BY 1 LIMIT 3))`);
  const [empty, duplicates] = problems.getRowsJson()[0] ?? [];
  if (Array.isArray(duplicates) && duplicates.length > 0) {
    const shown = duplicates.map((d) => JSON.stringify(d)).join(', ');
    throw new Error(
      `--record-id: duplicate id ${shown} in field "${column.name}": each record needs its own`,
    );
  }
  if (Number(empty) > 0) {
    throw new Error(`--record-id: field "${column.name}" is empty on ${Number(empty)} records`);
  }
  return id;
}
