// The datasets the catalog page leaves out for its visitor: those whose data the visitor cannot
// open, decided by the API's own rule (datasetAccess, the `data_visible` of the catalog API's
// answers), written as one ODSQL condition the page adds to each of its catalog requests, so the
// list, its total and the facet counts leave out the same datasets. Only restricted datasets can
// be left out, and the index names them (src/catalog/portal-load.ts): no request reads the
// catalog whole, and each caller's condition is worked out once per portal as loaded.
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import type { Context } from 'koa';
import type { Portal } from '../catalog/portal.js';
import { datasetAccess } from '../auth/access.js';
import type { KeyOwner } from '../auth/keys.js';
import type { Services } from '../http/services.js';
import { callerState } from '../http/auth-middleware.js';

/**
 * Datasets a condition may name in an IN list. DuckDB compares each catalog row with each value:
 * at 20,000 datasets 100 values cost 6-20 ms a query, 1,000 values 250-700 ms.
 */
export const MAX_NAMED = 100;

/** Characters of the condition: it goes in the page's request URLs, which the server bounds at 32 KiB. */
const MAX_CONDITION_LENGTH = 16_000;

/** Datasets examined between two turns of the event loop (each may be parsed from the index). */
const PER_TURN = 100;

/** Callers whose condition is kept per portal (anonymous is one); the oldest is dropped past it. */
const MAX_CALLERS = 1_000;

const scopes = new WeakMap<Portal, Map<string, Promise<string | null>>>();

/** The restricted datasets a caller can open and those it cannot. */
interface Split {
  readonly open: string[];
  readonly closed: string[];
}

/** Splits the restricted datasets of `portal` by whether `owner` (null: anonymous) may open them. */
async function splitRestricted(portal: Portal, owner: KeyOwner | null): Promise<Split> {
  const split: Split = { open: [], closed: [] };
  const ids = portal.load
    ? portal.load.restricted
    : [...portal.datasets.values()].filter((d) => d.file.visibility === 'restricted').map((d) => d.id);
  // A restricted dataset naming no audience is open to no one: it is closed without being read.
  const named = portal.load ? new Set(portal.load.guarded) : null;
  for (const [i, id] of ids.entries()) {
    if (i % PER_TURN === PER_TURN - 1) await yieldToEvents();
    const dataset = named === null || named.has(id) ? portal.datasets.get(id) : undefined;
    const open = dataset !== undefined && datasetAccess(dataset, owner).dataVisible;
    (open ? split.open : split.closed).push(id);
  }
  return split;
}

/** Ids as an ODSQL list (ids are `[a-z0-9_-]`: each is a string literal as it is). */
const listOf = (ids: readonly string[]): string => ids.map((id) => `'${id}'`).join(', ');

/**
 * The shortest condition for `split`: the public datasets and the few restricted ones the caller
 * opens, else all but the few it does not; null when it opens them all or both lists are long.
 */
function conditionOf({ open, closed }: Split): string | null {
  if (closed.length === 0) return null;
  let condition: string | null = null;
  if (open.length === 0) condition = "visibility = 'domain'";
  else if (open.length <= MAX_NAMED) condition = `(visibility = 'domain' or dataset_id in (${listOf(open)}))`;
  else if (closed.length <= MAX_NAMED) condition = `not dataset_id in (${listOf(closed)})`;
  return condition !== null && condition.length <= MAX_CONDITION_LENGTH ? condition : null;
}

/**
 * The ODSQL condition leaving out of the catalog the datasets the request's caller cannot open,
 * or null when there are none, or when no short condition says which (the page then lists them
 * with data_visible false, and marks them).
 */
export function catalogScope(ctx: Context, services: Services): Promise<string | null> {
  const portal = services.portal();
  const { owner } = callerState(ctx);
  const key = owner === null ? '' : JSON.stringify([owner.user, [...owner.groups].sort()]);
  let byCaller = scopes.get(portal);
  if (!byCaller) scopes.set(portal, (byCaller = new Map<string, Promise<string | null>>()));
  let scope = byCaller.get(key);
  if (!scope) {
    scope = splitRestricted(portal, owner).then(conditionOf);
    byCaller.set(key, scope);
    if (byCaller.size > MAX_CALLERS) byCaller.delete(byCaller.keys().next().value!);
  }
  return scope;
}
