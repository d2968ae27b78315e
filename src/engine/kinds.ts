// The one registry of engine kinds: each supplies its Engine and its Dialect together
// (engine-kind.ts). A new kind is a folder on each side (src/engine/<kind>/ with its kind.ts,
// src/odsql/dialect/<kind>/) and its line here; docs/architecture.md walks through it.
import type { DatasetEngine } from '../catalog/schema.js';
import { clickhouseKind } from './clickhouse/kind.js';
import { duckdbKind } from './duckdb/kind.js';
import type { AttachedKind, LocalKind } from './engine-kind.js';

/** The engine of the portals' own files, one per server. */
export const LOCAL_KIND: LocalKind = duckdbKind;

/** The kinds of engine datasets are attached to, by the name dataset.json's engine.kind gives. */
export const ATTACHED_KINDS: Readonly<Record<DatasetEngine['kind'], AttachedKind>> = Object.freeze({
  clickhouse: clickhouseKind,
});
