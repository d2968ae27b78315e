// v1's query language (`q`) read into the ODSQL syntax tree, so v1 filters compile like v2.1 ones
// (the forms accepted: docs/api.md, "v1 query language").
import type { QuerySource } from '../../../odsql/source.js';
import type { ClauseCondition } from '../../../odsql/index.js';
import { Reader } from './reader.js';

/** The condition of a v1 `q` over a source; its errors (a QueryLangError) name the q clause. */
export function parseV1Query(source: QuerySource, q: string): ClauseCondition {
  return { expr: new Reader(q, source.fields).read(), clause: 'q' };
}
