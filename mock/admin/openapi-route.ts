import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import { ORIGIN_VARY, requestOrigin } from '../http/origin.js';
import { servedText } from '../http/served-document.js';
import { buildAdminDocument, type AdminRoute } from './admin-document.js';

/** Where the admin API's own document is served, and its name in `/docs`. */
export const ADMIN_DOCUMENT = { name: 'Mock admin API (/__mock/openapi.json)', url: '/__mock/openapi.json' } as const;

/**
 * Serves `GET /__mock/openapi.json`: the admin API as OpenAPI 3.1 (./admin-document.ts). Called on the app before the
 * admin routes are registered: it records every `/__mock/*` route registered after it, wherever (so a route added
 * later cannot be missing from the document), with the schemas Fastify validates it with and whether its
 * `preValidation` includes `tenantHook` (authentication of the caller's tenant). The document is built at its first
 * request, once every route exists, then kept; each answer names the caller's origin in `servers`.
 */
export function serveAdminDocument(app: FastifyInstance, tenantHook: preValidationHookHandler): void {
  const routes: AdminRoute[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/__mock/')) return;
    const hooks = [route.preValidation ?? []].flat();
    for (const method of [route.method].flat()) {
      routes.push({
        method,
        url: route.url,
        ...(route.schema ? { schema: route.schema } : {}),
        tenantScoped: hooks.includes(tenantHook),
      });
    }
  });
  let text: ((origin: string) => string) | undefined;
  app.get(ADMIN_DOCUMENT.url, (req, reply) => {
    text ??= servedText(buildAdminDocument(routes));
    return reply
      .header('vary', ORIGIN_VARY)
      .type('application/json; charset=utf-8')
      .send(text(requestOrigin(req)));
  });
}
