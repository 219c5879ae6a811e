import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requirePermission, type TokenAuthority } from './auth.js';
import { ApiProblem, type ProblemContext, sendProblem } from './problems.js';
import { countRequest, type RateLimit } from './rate-limit.js';
import { Router } from './router.js';
import { ITEM_ROUTES } from './routes-items.js';
import { NOTIFICATION_ROUTES } from './routes-notifications.js';
import { OTHER_ROUTES } from './routes-other.js';
import type { Tenant, TenantRegistry } from './tenants.js';
import type { Deliverer } from './webhooks.js';

/**
 * The HTTP shell on `node:http`: every `/v1` request is authenticated, counted against its tenant's rate limit,
 * routed, checked for its permission and handled; every refusal is rendered as one problem body.
 */
interface ShellParts {
  faults: ReadonlySet<string>;
  rateLimit: RateLimit | null;
  tokens: TokenAuthority;
  tenants: TenantRegistry;
  deliverer: Deliverer;
}

const router = new Router([...ITEM_ROUTES, ...NOTIFICATION_ROUTES, ...OTHER_ROUTES]);

/** Path and query of the request target, read against a fixed origin so `//x` stays a path. */
function target(rawUrl: string | undefined): { path: string; query: URLSearchParams } {
  const raw = rawUrl ?? '/';
  try {
    const url = new URL(`http://server${raw.startsWith('/') ? raw : `/${raw}`}`);
    return { path: url.pathname, query: url.searchParams };
  } catch {
    return { path: raw.split('?')[0] ?? '/', query: new URLSearchParams() };
  }
}

/** Authentication 2: an `X-Api-Key` must be a live key of the bearer token's own organisation. */
function checkApiKey(header: string | string[] | undefined, tenant: Tenant, keyOwners: Map<string, string>): void {
  if (header === undefined) return;
  const key = Array.isArray(header) ? header[0] : header;
  const owner = key === undefined ? undefined : keyOwners.get(key);
  const record = owner === tenant.org ? [...tenant.apiKeys.values()].find((k) => k.key === key) : undefined;
  if (!record?.isActive) throw ApiProblem.unauthorized('the X-Api-Key is not a key of this organisation', true);
}

export class Shell {
  readonly server: Server;
  private base = '';
  private readonly keyOwners: Map<string, string>;

  constructor(private readonly parts: ShellParts) {
    this.keyOwners = parts.tenants.keyOwners;
    this.server = createServer((req, res) => {
      void this.handle(req, res);
    });
    this.server.on('clientError', (_error, socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      else socket.destroy();
    });
  }

  /** Listens on the loopback interface; the origin becomes `{base_url}` of problem types. */
  async listen(port: number): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const address = this.server.address() as AddressInfo;
    this.base = `http://127.0.0.1:${address.port}`;
    return this.base;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { faults, tokens, tenants, deliverer, rateLimit } = this.parts;
    const method = (req.method ?? 'GET').toUpperCase();
    const { path, query } = target(req.url);
    const problemContext: ProblemContext = { method, path, base: this.base, faults };
    try {
      if (path !== '/v1' && !path.startsWith('/v1/'))
        throw new ApiProblem(404, 'No such resource', `nothing is served at ${path}; the API lives under /v1`);
      const caller = await tokens.authenticate(req.headers.authorization);
      const tenant = tenants.get(caller.org);
      checkApiKey(req.headers['x-api-key'], tenant, this.keyOwners);
      countRequest(tenant, rateLimit, faults);
      const { route, params } = router.resolve(method, path);
      if (route.permission) requirePermission(caller, route.permission, faults);
      await route.handle({
        ...problemContext,
        req,
        res,
        query,
        params,
        caller,
        tenant,
        deliverer,
        keyOwners: this.keyOwners,
      });
    } catch (error) {
      const problem =
        error instanceof ApiProblem
          ? error
          : new ApiProblem(500, 'Internal error', 'the server could not handle the request');
      if (problem.status === 413) res.setHeader('Connection', 'close');
      sendProblem(res, problemContext, problem);
    } finally {
      req.resume();
    }
  }
}
