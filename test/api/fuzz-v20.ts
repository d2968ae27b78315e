// The fuzz test's v2.0 shape property: every 2xx answer of a v2.0 route (records, aggregates, the
// catalog, a dataset) is nested as supplement 7 says, and its links are absolute URLs under the
// v2.0 path the request used.
type Json = any;

const V20_PATH = /^(\/api\/explore\/v2\.0|\/api\/v2)(\/(?:catalog|monitoring|opendatasoft)\/.*)$/;

const isObject = (value: Json): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The problem with a list of links, or null: each `{href, rel}`, `href` absolute under `prefix`. */
function linksProblem(links: Json, prefix: string): string | null {
  if (!Array.isArray(links)) return 'links is not a list';
  for (const link of links) {
    if (!isObject(link) || typeof link.rel !== 'string') return `a link without rel: ${JSON.stringify(link)}`;
    if (typeof link.href !== 'string' || !/^https?:\/\/[^/]+\//.test(link.href))
      return `a relative link: ${link.href}`;
    if (!new URL(link.href).pathname.startsWith(`${prefix}/`))
      return `a link outside ${prefix}: ${link.href}`;
  }
  return null;
}

/** The problem with each item of `items` (`{links, [key]: object}`), or null. */
function nestedProblem(items: Json, key: string, prefix: string): string | null {
  if (!Array.isArray(items)) return `${key}s is not a list`;
  for (const item of items) {
    if (!isObject(item) || !isObject(item[key])) return `an item without its ${key} object`;
    const problem = linksProblem(item.links, prefix);
    if (problem) return problem;
  }
  return null;
}

function recordsProblem(body: Json, prefix: string): string | null {
  if (typeof body.total_count !== 'number') return 'records without total_count';
  for (const { record } of Array.isArray(body.records) ? body.records : []) {
    if (!isObject(record) || !isObject(record.fields) || typeof record.size !== 'number')
      return `a record not {id, timestamp, size, fields}: ${JSON.stringify(record)}`;
  }
  return linksProblem(body.links, prefix) ?? nestedProblem(body.records, 'record', prefix);
}

/** The shape problem of a 2xx answer to a v2.0 JSON route, or null (other routes: null). */
export function v20ShapeProblem(path: string, text: string): string | null {
  const match = V20_PATH.exec(path);
  if (!match) return null;
  const [, prefix, tail] = match as unknown as [string, string, string];
  if (/\/(exports|facets|attachments)(\/|$)/.test(tail)) return null;
  let body: Json;
  try {
    body = JSON.parse(text);
  } catch {
    return 'v2.0 answer is not JSON';
  }
  if (tail.endsWith('/aggregates')) {
    return Array.isArray(body.aggregations) ? linksProblem(body.links, prefix) : 'no aggregations list';
  }
  if (tail.endsWith('/records')) return recordsProblem(body, prefix);
  if (/^\/\w+\/datasets$/.test(tail)) {
    if (typeof body.total_count !== 'number') return 'catalog without total_count';
    return linksProblem(body.links, prefix) ?? nestedProblem(body.datasets, 'dataset', prefix);
  }
  if (/^\/\w+\/datasets\/[^/]+$/.test(tail)) {
    return isObject(body.dataset) ? linksProblem(body.links, prefix) : 'a dataset lookup without its dataset';
  }
  return null;
}
