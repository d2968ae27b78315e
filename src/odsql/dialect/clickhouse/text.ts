// ClickHouse's spelling of the scalar text functions (over UTF-8 characters, as DuckDB's) and startswith().
import { searchFields, textOf } from '../../functions/predicate.js';
import { fieldsOf } from '../../functions/search.js';
import { isMultivalued } from '../../../catalog/schema.js';
import type { FunctionSpelling } from '../dialect.js';
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

export const TEXT: ReadonlyMap<string, FunctionSpelling> = new Map<string, FunctionSpelling>([
  ['length', ([text]) => `lengthUTF8(${text!.sql})`],
  ['lower', ([text]) => `lowerUTF8(${text!.sql})`],
  ['upper', ([text]) => `upperUTF8(${text!.sql})`],
  ['ifnull', ([expr, alternative]) => `coalesce(${expr!.sql}, ${alternative!.sql})`],
  ['startswith', startsWith],
]);
