// The one registry of engine kinds: each supplies its Engine and its Dialect together
// (engine-kind.ts). A new kind is a folder on each side (src/engine/<kind>/ with its kind.ts,
// src/odsql/dialect/<kind>/) and its line here; docs/architecture.md walks through it.
import { clickhouseKind } from './clickhouse/kind.js';
import { duckdbKind } from './duckdb/kind.js';
import type { AttachedKind, LocalKind } from './engine-kind.js';

/** The engine of the portals' own files, one per server. */
export const LOCAL_KIND: LocalKind = duckdbKind;

/** The kinds of engine datasets are attached to, by their names (dataset.json's engine.kind). */
export const ATTACHED_KINDS: ReadonlyMap<string, AttachedKind> = new Map(
  [
    clickhouseKind, // one line per kind
  ].map((kind) => [kind.name, kind]),
);

/** The attached kind named `name`; the portal loader has refused any other name (ENGINE_KIND_NAMES). */
export function attachedKind(name: string): AttachedKind {
  const kind = ATTACHED_KINDS.get(name);
  if (!kind) throw new Error(`no engine kind named ${name}`);
  return kind;
}

/** The names a dataset.json may give in engine.kind, handed to the portal loader. */
export const ENGINE_KIND_NAMES: ReadonlySet<string> = new Set(ATTACHED_KINDS.keys());
