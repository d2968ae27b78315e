// The function registry: every ODSQL function by name, and the unknown-name error with a hint.
import { QueryLangError } from '../errors.js';
import { AGGREGATE_FUNCTIONS } from './aggregate.js';
import { DECLARATION_FUNCTIONS } from './declarations.js';
import { GROUPING_FUNCTIONS } from './grouping.js';
import { PREDICATE_FUNCTIONS } from './predicate.js';
import type { FunctionEntry } from './registry.js';
import { SPATIAL_FUNCTIONS } from './spatial.js';
import { TEMPORAL_FUNCTIONS } from './temporal.js';
import { TEXT_FUNCTIONS } from './text.js';

/** Every entry, by domain; a name may have several entries of different arities (distance). */
export const ALL_FUNCTIONS: readonly FunctionEntry[] = [
  ...TEXT_FUNCTIONS,
  ...TEMPORAL_FUNCTIONS,
  ...SPATIAL_FUNCTIONS,
  ...PREDICATE_FUNCTIONS,
  ...AGGREGATE_FUNCTIONS,
  ...GROUPING_FUNCTIONS,
  ...DECLARATION_FUNCTIONS,
];

const BY_NAME: ReadonlyMap<string, readonly FunctionEntry[]> = ALL_FUNCTIONS.reduce((map, entry) => {
  map.set(entry.name, [...(map.get(entry.name) ?? []), entry]);
  return map;
}, new Map<string, FunctionEntry[]>());

/** Names of every registered function, sorted. */
export const FUNCTION_NAMES: readonly string[] = [...BY_NAME.keys()].sort();

/** The entries of a function, or a QueryLangError naming it with the nearest known names. */
export function lookupFunction(name: string): readonly FunctionEntry[] {
  const entries = BY_NAME.get(name.toLowerCase());
  if (entries) return entries;
  const hint = nearestNames(name.toLowerCase(), FUNCTION_NAMES);
  throw new QueryLangError(
    `Unknown function: ${name}${hint.length ? ` (did you mean ${hint.join(', ')}?)` : ''}`,
  );
}

/** Up to three candidates within an edit distance of a third of the name's length (at least 2). */
export function nearestNames(name: string, candidates: readonly string[]): string[] {
  const threshold = Math.max(2, Math.floor(name.length / 3));
  return candidates
    .map((candidate) => ({ candidate, distance: levenshtein(name, candidate) }))
    .filter(({ distance }) => distance <= threshold)
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}

/** Edit distance (insertions, deletions, substitutions), one row at a time. */
export function levenshtein(a: string, b: string): number {
  if (a.length > 100 || b.length > 100) return Math.abs(a.length - b.length) + 100;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
