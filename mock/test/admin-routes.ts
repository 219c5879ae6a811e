import type { FastifyInstance } from 'fastify';

/** A route of Fastify's own table: its method and its path as registered (`:param` segments as such). */
interface RegisteredRoute {
  readonly method: string;
  readonly url: string;
}

/**
 * Every `/__mock/*` route of an app, from Fastify's own route table (`printRoutes`: a tree whose nested lines carry the
 * rest of their parent's path, `/__mock/teams` then `/:id`), so a route added later is found without anyone listing it.
 */
export async function registeredAdminRoutes(app: FastifyInstance): Promise<RegisteredRoute[]> {
  await app.ready();
  const stack: string[] = [];
  const routes: RegisteredRoute[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?/.exec(line);
    if (!m?.[2]) continue;
    const depth = (m[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(m[2]);
    const url = stack.join('');
    if (!url.startsWith('/__mock/') || !m[3]) continue;
    for (const method of m[3].split(', ')) routes.push({ method, url });
  }
  return routes;
}
