// Compiled queries kept by their source and inputs: asked again, the same query skips parsing,
// analysis and compiling, main-thread work of every request (docs/http-caching.md). A compiled
// query is frozen and depends on nothing else
// (now() compiles to the engine's now()), so it is shared as it is.
import { LRUCache } from 'lru-cache';
import type { QuerySource } from './source.js';
import type { CompiledQuery } from './compile.js';

/** Characters of keys and SQL kept, all sources together (a few thousand everyday queries). */
export const COMPILED_CHARACTERS = 4_000_000;

/**
 * Each source object seen, numbered: a served dataset's source is one object per version and
 * audience (src/http/services.ts), so its queries are found again until a reload replaces it.
 */
const sourceNumbers = new WeakMap<QuerySource, number>();
let sourcesSeen = 0;

const kept = new LRUCache<string, CompiledQuery>({
  maxSize: COMPILED_CHARACTERS,
  sizeCalculation: (compiled, key) => key.length + compiled.sql.length + compiled.countSql.length,
});

/**
 * The query compiled from `inputs` over `source`: kept from an earlier call, or compiled and kept.
 * Inputs are keyed by their JSON, which writes every input a compile reads as it is (ASTs and
 * texts; the numbers JSON cannot write, NaN and infinities, are refused by the compiler, and
 * what fails to compile is not kept).
 */
export function keptCompilation(
  source: QuerySource,
  inputs: unknown,
  compile: () => CompiledQuery,
): CompiledQuery {
  let number = sourceNumbers.get(source);
  if (number === undefined) {
    number = ++sourcesSeen;
    sourceNumbers.set(source, number);
  }
  const key = `${number} ${JSON.stringify(inputs)}`;
  const found = kept.get(key);
  if (found) return found;
  const compiled = compile();
  kept.set(key, compiled);
  return compiled;
}
