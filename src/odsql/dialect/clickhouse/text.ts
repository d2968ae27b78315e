// ClickHouse's spelling of the scalar text functions (over UTF-8 characters, as DuckDB's) and startswith().
import { searchFields, textOf } from '../../functions/predicate.js';
import { fieldsOf } from '../../functions/search.js';
import { isMultivalued } from '../../../catalog/schema.js';
import type { CompiledArg, FunctionSpelling } from '../dialect.js';
import { LISTS } from './lists.js';
import { quoteIdentifier, quoteString } from '../../../sql/clickhouse-quoting.js';

/** startswith(): the whole value begins with the prefix, case-sensitive; for a multivalued field, any element. */
const startsWith: FunctionSpelling = (args, ctx) => {
  const prefix = quoteString(textOf(args[1]));
  const chosen = fieldsOf(ctx.source, searchFields(args));
  if (chosen.length === 0) return '0';
  const tests = chosen.map((f) =>
    isMultivalued(f)
      ? LISTS.any(quoteIdentifier(f.name), (item) => `startsWith(${item}, ${prefix})`)
      : `startsWith(${quoteIdentifier(f.name)}, ${prefix})`,
  );
  return `(${tests.join(' OR ')})`;
};

/**
 * ifnull(): ClickHouse 18.16 finds no common type of an integer and a float, nor of Int64 and
 * UInt64 (`length()`), and fails the query (code 386): numbers of two types meet as Float64 (as
 * DuckDB's coalesce of BIGINT and DOUBLE gives a DOUBLE), integers as Int64.
 */
const ifNull: FunctionSpelling = ([expr, alternative]) => {
  const types = [expr!.type, alternative!.type];
  const numbers = types.every((t) => t === 'int' || t === 'double');
  const as = !numbers ? null : types.includes('double') ? 'toFloat64' : 'toInt64';
  const sql = (a: CompiledArg): string => (as ? `${as}(${a.sql})` : a.sql);
  return `coalesce(${sql(expr!)}, ${sql(alternative!)})`;
};

export const TEXT: ReadonlyMap<string, FunctionSpelling> = new Map<string, FunctionSpelling>([
  ['length', ([text]) => `lengthUTF8(${text!.sql})`],
  ['lower', ([text]) => `lowerUTF8(${text!.sql})`],
  ['upper', ([text]) => `upperUTF8(${text!.sql})`],
  ['ifnull', ifNull],
  ['startswith', startsWith],
]);
