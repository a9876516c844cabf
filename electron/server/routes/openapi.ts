import type { Route } from '../http/route';
import { buildOpenApiDocument } from '../openapi/build-openapi';

let document: string | undefined;

/**
 * GET /api/openapi.json: served without a key. It describes the public contract only (no shelter data),
 * and tools (linters, client generators, the desk's connection check) fetch it before they have a key.
 * It still carries the metadata headers and an hourly limit of its own.
 */
export const openapiRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/openapi.json',
    endpoint: 'GET /api/openapi.json',
    access: 'public',
    handle() {
      document ??= JSON.stringify(buildOpenApiDocument());
      return { status: 200, body: document };
    },
  },
];
