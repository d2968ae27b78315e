// Several portals in one server: the request's Host names the portal that answers it. Knows
// nothing of Koa: it hands each request to a listener.
import type http from 'node:http';

/** A portal as the front sees it: the host names it answers, and its application. */
export interface HostedPortal {
  /** Its label (metrics, log, messages). */
  readonly label: string;
  /** Its `domain` and `aliases` from portal.json. */
  readonly hostNames: readonly string[];
  readonly handle: http.RequestListener;
}

/** A host name and an optional port, or a bracketed IPv6 address: anything else names no portal. */
const HOST =
  /^([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.?|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/i;

/** The host name of a Host header, lower case, without its port or trailing dot; null when odd or missing. */
export function hostName(header: string | undefined): string | null {
  const match = HOST.exec(header?.trim() ?? '');
  return match ? normalName(match[1]!) : null;
}

const normalName = (name: string): string => name.toLowerCase().replace(/\.$/, '');

/**
 * Which portal answers a Host: with one portal, that one whatever the Host (as a single-portal
 * server always did); with several, the one that lists the Host's name, else null. Refuses two
 * portals claiming one name, or one label twice.
 */
export function hostResolver(
  portals: readonly HostedPortal[],
): (header: string | undefined) => HostedPortal | null {
  const [only] = portals;
  if (portals.length === 1 && only) return () => only;
  const byName = new Map<string, HostedPortal>();
  const labels = new Set<string>();
  for (const portal of portals) {
    if (labels.has(portal.label))
      throw new Error(`two portals are named ${portal.label}: give their folders different names`);
    labels.add(portal.label);
    for (const name of portal.hostNames.map(normalName)) {
      const other = byName.get(name);
      if (other) throw new Error(`portals ${other.label} and ${portal.label} both answer the host ${name}`);
      byName.set(name, portal);
    }
  }
  return (header) => {
    const name = hostName(header);
    return name === null ? null : (byName.get(name) ?? null);
  };
}

/**
 * Why the host a request names is ambiguous, or null when it names one: two Host headers, or an
 * absolute URI as request target (`GET http://b.example/...`) whose authority is not the Host.
 * A proxy reading the other value would route the request to another portal than the one that
 * answers it (request smuggling between portals), so such a request is refused, not resolved.
 */
export function hostConflict(request: http.IncomingMessage): string | null {
  const hosts: string[] = [];
  const raw = request.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'host') hosts.push(raw[i + 1]!);
  if (hosts.length > 1) return `it has ${hosts.length} Host headers`;
  const target = request.url ?? '';
  if (target.startsWith('/') || target === '*') return null;
  const [host] = hosts;
  const named = authorityOf(target);
  if (named === null) return 'its request target is neither a path nor an absolute URI';
  if (host === undefined) return `its request target names ${named} and it has no Host header`;
  const scheme = target.slice(0, target.indexOf(':'));
  return authorityOf(`${scheme}://${host}/`) === named
    ? null
    : `its request target names ${named}, its Host header ${JSON.stringify(host.slice(0, 100))}`;
}

/** The host and port of an absolute URI as URL normalizes them (case, default port), or null. */
function authorityOf(uri: string): string | null {
  try {
    return new URL(uri).host || null;
  } catch {
    return null;
  }
}

/** The paths that answer for the whole server, whatever the Host (/livez, /readyz, /metrics). */
export const SERVER_PATHS: ReadonlySet<string> = new Set(['/livez', '/readyz', '/metrics']);

/**
 * The server's request listener: the server's own paths (`server`, null when they have a listener
 * of their own) for any Host, then the portal the Host names, else `unknownHost` (a 404).
 */
export function frontListener(
  portals: readonly HostedPortal[],
  server: http.RequestListener | null,
  unknownHost: http.RequestListener,
): http.RequestListener {
  const resolve = hostResolver(portals);
  return (request, response) => {
    const read = request.method === 'GET' || request.method === 'HEAD';
    if (server && read && SERVER_PATHS.has(pathOf(request.url))) return server(request, response);
    const portal = resolve(request.headers.host);
    return (portal?.handle ?? unknownHost)(request, response);
  };
}

function pathOf(url: string | undefined): string {
  const end = url?.search(/[?#]/) ?? -1;
  return end < 0 ? (url ?? '') : url!.slice(0, end);
}
