import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Caller } from './auth.js';
import type { ProblemContext } from './problems.js';
import { ApiProblem } from './problems.js';
import type { Tenant } from './tenants.js';
import type { Deliverer } from './webhooks.js';

/** What a handler gets: the request, its authenticated caller and tenant, and the server's shared parts. */
export interface RequestContext extends ProblemContext {
  req: IncomingMessage;
  res: ServerResponse;
  query: URLSearchParams;
  params: Readonly<Record<string, string>>;
  caller: Caller;
  tenant: Tenant;
  deliverer: Deliverer;
  /** API key value → organisation (Authentication 2). */
  keyOwners: Map<string, string>;
}

export interface Route {
  method: string;
  /** Path with `{name}` placeholders, e.g. `/v1/items/skus/{skuReference}/stock`. */
  pattern: string;
  /** Permission checked before the handler runs (Authentication 4); none for plain reads. */
  permission?: string;
  handle(ctx: RequestContext): Promise<void> | void;
}

interface Compiled {
  route: Route;
  segments: string[];
}

/** Matches a request line to a route: 404 for an unknown path, 405 for a known path with another method. */
export class Router {
  private readonly compiled: Compiled[];

  constructor(routes: readonly Route[]) {
    this.compiled = routes.map((route) => ({ route, segments: route.pattern.split('/') }));
  }

  resolve(method: string, path: string): { route: Route; params: Record<string, string> } {
    const parts = path.split('/');
    const allowed = new Set<string>();
    for (const { route, segments } of this.compiled) {
      const params = matchSegments(segments, parts);
      if (!params) continue;
      if (route.method === method) return { route, params };
      allowed.add(route.method);
    }
    if (allowed.size > 0) {
      const methods = [...allowed].sort().join(', ');
      throw new ApiProblem(
        405,
        'Method not allowed',
        `${method} is not served here; use ${methods}`,
        undefined,
        undefined,
        {
          Allow: methods,
        },
      );
    }
    throw new ApiProblem(404, 'No such resource', `nothing is served at ${path}`);
  }
}

function matchSegments(pattern: readonly string[], parts: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i += 1) {
    const expected = pattern[i]!;
    const actual = parts[i]!;
    if (expected.startsWith('{') && expected.endsWith('}')) {
      if (actual === '') return undefined;
      try {
        params[expected.slice(1, -1)] = decodeURIComponent(actual);
      } catch {
        return undefined;
      }
    } else if (expected !== actual) return undefined;
  }
  return params;
}
