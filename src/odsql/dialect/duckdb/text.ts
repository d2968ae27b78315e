// DuckDB's spelling of the scalar text functions: length, lower, upper, ifnull, json_format.
import type { FunctionSpelling } from '../dialect.js';

export const TEXT: ReadonlyMap<string, FunctionSpelling> = new Map<string, FunctionSpelling>([
  ['length', ([text]) => `length(${text!.sql})`],
  ['lower', ([text]) => `lower(${text!.sql})`],
  ['upper', ([text]) => `upper(${text!.sql})`],
  ['ifnull', ([expr, alternative]) => `coalesce(${expr!.sql}, ${alternative!.sql})`],
  [
    // Exports other than JSON keep the original text (explore-api.md): text and native outputs.
    'json_format',
    ([text, fallback], ctx) => {
      if (ctx.output !== 'json') return text!.sql;
      const otherwise = fallback
        ? fallback.node.kind === 'null'
          ? 'NULL'
          : `to_json(${fallback.sql})`
        : `to_json(${text!.sql})`;
      return `CASE WHEN ${text!.sql} IS NULL THEN NULL WHEN json_valid(${text!.sql}) THEN CAST(${text!.sql} AS JSON) ELSE ${otherwise} END`;
    },
  ],
  // A hash of the row's identity (its ordinal, or the group keys) and the seed: the same seed gives
  // the same order, page after page.
  ['random', ([seed], ctx) => `hash(${ctx.rowIdentity}, ${ctx.dialect.quoteString(seed!.sql)})`],
]);
