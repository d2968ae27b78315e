// The OpenAPI 3 document of every route the app serves, built from the routers themselves and the
// zod schemas that validate each operation's query string (their metadata carries the JSON Schema).
import type Router from '@koa/router';
import { z } from 'zod';
import { catalogListParams, datasetLookupParams } from './v2/catalog-routes.js';
import { catalogExportParams, exportParams } from './v2/export-routes.js';
import { facetParams } from './v2/facet-routes.js';
import { recordParams, recordsParams } from './v2/records-routes.js';
import { v1DatasetParams } from './v1/datasets-v1.js';
import { v1DownloadParams } from './v1/download-v1.js';
import { exploreDownloadParams } from './explore-download.js';
import { EXPLORE_DOWNLOAD_PATH } from './link-paths.js';
import { v1RecordParams } from './v1/records-v1.js';
import { v1RecordsParams, v1SearchParams } from './v1/v1-query.js';

type ParamsSchema = z.ZodObject;

/** The query-string schema of each route, by its router path; routes absent here take no query parameters. */
export const ROUTE_PARAMS: Readonly<Record<string, ParamsSchema>> = {
  '/api/explore/v2.1/catalog/datasets': catalogListParams,
  '/api/explore/v2.1/catalog/datasets/:dataset_id': datasetLookupParams,
  '/api/explore/v2.1/catalog/datasets/:dataset_id/records': recordsParams,
  '/api/explore/v2.1/catalog/datasets/:dataset_id/records/:record_id': recordParams,
  '/api/explore/v2.1/catalog/datasets/:dataset_id/facets': facetParams,
  '/api/explore/v2.1/catalog/facets': facetParams,
  '/api/explore/v2.1/catalog/datasets/:dataset_id/exports/:format': exportParams,
  '/api/explore/v2.1/catalog/exports/:format': catalogExportParams,
  '/api/datasets/1.0/search': v1SearchParams,
  '/api/datasets/1.0/:dataset_id': v1DatasetParams,
  '/api/records/1.0/search': v1RecordsParams,
  '/api/datasets/1.0/:dataset_id/records/:record_id': v1RecordParams,
  '/api/records/1.0/download': v1DownloadParams,
  [EXPLORE_DOWNLOAD_PATH]: exploreDownloadParams,
};

/** Query parameters v1 takes under a facet's name, which no fixed schema can list. */
const V1_FACET_NOTE =
  'Also accepts refine.<facet>, exclude.<facet>, disjunctive.<facet> and facetsort.<facet> parameters.';

/** The GET routes of routers, in OpenAPI path form (`{name}`), with their router paths. */
export function routesOf(routers: readonly Router[]): { path: string; routerPath: string }[] {
  const seen = new Map<string, string>();
  for (const router of routers) {
    for (const layer of router.stack) {
      if (!layer.methods.includes('GET')) continue;
      seen.set(String(layer.path).replace(/:(\w+)/g, '{$1}'), String(layer.path));
    }
  }
  return [...seen].map(([path, routerPath]) => ({ path, routerPath }));
}

/** One query parameter from its schema's metadata (plain string when a schema carries none). */
function queryParameter(name: string, schema: z.ZodType): Record<string, unknown> {
  const { description, ...jsonSchema } = (z.globalRegistry.get(schema) ?? { type: 'string' }) as Record<
    string,
    unknown
  >;
  return {
    name,
    in: 'query',
    required: false,
    ...(description !== undefined && { description }),
    schema: jsonSchema,
    ...(jsonSchema.type === 'array' && { style: 'form', explode: true }),
  };
}

function operation(routerPath: string, path: string): Record<string, unknown> {
  const schema = ROUTE_PARAMS[routerPath];
  const pathParameters = [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const queryParameters = schema
    ? Object.entries(schema.shape).map(([name, s]) => queryParameter(name, s as z.ZodType))
    : [];
  const v1 = !path.startsWith('/api/explore/');
  return {
    get: {
      operationId: `get${path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
      tags: [v1 ? 'v1' : 'v2.1'],
      ...(v1 && path.includes('/search') && { description: V1_FACET_NOTE }),
      parameters: [...pathParameters, ...queryParameters],
      responses: {
        '200': { description: 'The answer (JSON, or the exported file).' },
        default: {
          description: 'An error.',
          content: {
            'application/json': {
              schema: { $ref: v1 ? '#/components/schemas/V1Error' : '#/components/schemas/Error' },
            },
          },
        },
      },
    },
  };
}

/** The OpenAPI 3.0 document of the routers' GET routes. */
export function openApiDocument(routers: readonly Router[]): Record<string, unknown> {
  const routes = routesOf(routers);
  return {
    openapi: '3.0.3',
    info: {
      title: 'duckportal: Explore API v2.1 and v1',
      version: '2.1',
      description:
        'Read-only data portal API. Authentication: `Authorization: Apikey <key>` or `apikey=<key>`.',
    },
    // Relative to the document's own URL: the API console's "Try it out" calls the origin that
    // served the document, whatever name or port the server is reached by.
    servers: [{ url: '/', description: 'This server' }],
    paths: Object.fromEntries(routes.map((r) => [r.path, operation(r.routerPath, r.path)])),
    components: {
      schemas: {
        Error: {
          type: 'object',
          required: ['error_code', 'message'],
          properties: { error_code: { type: 'string' }, message: { type: 'string' } },
        },
        V1Error: {
          type: 'object',
          required: ['errorcode', 'error'],
          properties: { errorcode: { type: 'integer' }, error: { type: 'string' } },
        },
      },
    },
  };
}
