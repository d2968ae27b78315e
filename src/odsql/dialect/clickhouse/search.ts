// ClickHouse's spelling of search() and suggest(). ClickHouse 18.16 has no full-text index, no
// Levenshtein distance and no accent folding, so DuckDB's match (every term a token of the record,
// accents folded, one or two typos forgiven, the last term a prefix) has no equal: here every term
// must appear, case-insensitively, inside one of the chosen fields' values (a substring, as LIKE
// '%term%' would; for a multivalued field, inside one of its elements). docs/clickhouse.md says so.
import { searchFields, textOf } from '../../functions/predicate.js';
import { fieldsOf } from '../../functions/search.js';
import { queryTerms } from '../../../search/tokens.js';
import { isMultivalued } from '../../../catalog/schema.js';
import type { FunctionSpelling } from '../dialect.js';
import { LISTS } from './lists.js';
import { quoteIdentifier, quoteString } from '../../../sql/clickhouse-quoting.js';

/** Every term inside one of the fields; no terms: every record, no fields: none. */
const search: FunctionSpelling = (args, ctx) => {
  const chosen = fieldsOf(ctx.source, searchFields(args));
  const terms = queryTerms(textOf(args[args.length - 1]));
  if (terms.length === 0) return ctx.dialect.boolean(true);
  if (chosen.length === 0) return ctx.dialect.boolean(false);
  const everyTerm = terms.map((term) => {
    const inside = (text: string) => `(positionCaseInsensitiveUTF8(${text}, ${quoteString(term)}) > 0)`;
    const tests = chosen.map((f) => {
      const column = quoteIdentifier(f.name);
      if (isMultivalued(f)) return LISTS.any(column, inside);
      return inside(f.type === 'text' ? `coalesce(${column}, '')` : `coalesce(toString(${column}), '')`);
    });
    return `(${tests.join(' OR ')})`;
  });
  return `(${everyTerm.join(' AND ')})`;
};

export const SEARCH: ReadonlyMap<string, FunctionSpelling> = new Map<string, FunctionSpelling>([
  ['search', search],
  ['suggest', search],
]);
