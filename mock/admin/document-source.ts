import type { FastifyInstance, RouteOptions } from 'fastify';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { adminSwaggerOptions } from './document.js';

/** The admin API's document, built once on first use. */
export type AdminDocumentSource = () => Promise<OpenAPIObject>;

/** A route of the document's own instance: it only describes itself. */
const describedOnly = async () => null;

/**
 * Records every route registered in `plugin`'s context from now on (HEAD routes left out, as @fastify/swagger leaves
 * them out) and returns the source of the admin API's document. The document is built at the first call, by
 * @fastify/swagger in a Fastify instance of its own that is given the same routes (./document.ts, `keyed` as there).
 * Why (inferred; measured on the compiled CLI): loading @fastify/swagger and the YAML library it imports was ~46 ms of
 * every mock start (a tenth of it), for a document most mocks are never asked for; `/docs` is built on demand the same
 * way (mock/http/docs.ts).
 *
 * The routes' options are kept as registered and read when the document is built: ./guard.ts replaces the schema of a
 * guarded route in its own `onRoute` hook, and the document says what that schema says.
 */
export function recordAdminRoutes(plugin: FastifyInstance, keyed: boolean): AdminDocumentSource {
  const routes: RouteOptions[] = [];
  plugin.addHook('onRoute', (route) => {
    if (route.method !== 'HEAD') routes.push(route);
  });
  let built: Promise<OpenAPIObject> | undefined;
  return () => {
    built ??= documentOf(routes, keyed);
    return built;
  };
}

async function documentOf(routes: readonly RouteOptions[], keyed: boolean): Promise<OpenAPIObject> {
  const [{ default: Fastify }, { default: swagger }] = await Promise.all([
    import('fastify'),
    import('@fastify/swagger'),
  ]);
  const app = Fastify();
  // Nothing is validated or serialized here: no schema is compiled.
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await app.register(swagger, adminSwaggerOptions(keyed));
  await app.register(async (described) => {
    for (const { method, url, schema } of routes)
      described.route({ method, url, ...(schema ? { schema } : {}), exposeHeadRoute: false, handler: describedOnly });
  });
  await app.ready();
  try {
    return app.swagger() as OpenAPIObject;
  } finally {
    await app.close();
  }
}
