import type { FastifyReply, FastifyRequest } from 'fastify';
import { plainProblem } from '../problems.js';
import { refOf } from './request-ref.js';
import { send } from './send.js';

/**
 * What the site guard protects and lets through (docs/DESIGN.md, "Shared sandbox"). The composition root names the
 * paths (the admin API's), so the shell knows nothing of them.
 */
interface SiteGuardSettings {
  /** The guarded paths: this one and every path under it. */
  readonly prefix: string;
  /** Paths under the prefix that carry nothing of a tenant and change nothing (health, the API's document). */
  readonly open: ReadonlySet<string>;
  /** Whether the mock is bound to a loopback address: the guard applies only then. */
  readonly loopbackHost: boolean;
  /** Whether a host name or address is a loopback one (mock/shared-mode.ts). */
  readonly isLoopbackName: (host: string) => boolean;
  /** `--cors-origin`: web origins whose pages may call the guarded paths. */
  readonly corsOrigins: readonly string[];
  /** `--allowed-host`: host names besides loopback ones the mock is reached by. */
  readonly allowedHosts: readonly string[];
}

/** The host name of a `Host` value: lower case, without its port or a trailing dot (brackets of IPv6 dropped). */
function hostNameOf(host: string): string {
  const name = host.trim().toLowerCase();
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(name);
  return (bracketed ? (bracketed[1] ?? '') : name.replace(/:\d*$/, '')).replace(/\.$/, '');
}

/** The Sec-Fetch-Site values of a request made by a page of another origin (Fetch Metadata, W3C). */
const OTHER_SITES = new Set(['cross-site', 'same-site']);

/**
 * Why a request to a guarded path is refused, or null. Inferred (the reference has no admin API): a mock on loopback
 * trusts whoever reaches it, and a web page the developer opens reaches it too, through the browser:
 * - DNS rebinding: a page of `evil.example` whose name is made to resolve to 127.0.0.1 calls the mock as its own
 *   origin; its requests carry `Host: evil.example`, so a Host that is neither a loopback name, nor the mock's own
 *   address, nor one named by `--allowed-host` is refused.
 * - A page of another origin (another port of localhost included: `same-site` ignores ports) calling the mock:
 *   its `Origin` differs from the mock's own, or `Sec-Fetch-Site` says `cross-site` or `same-site`; refused unless
 *   `--cors-origin` names that origin. `same-origin` (the mock's own /docs page) and `none` (an address typed in the
 *   browser) pass, as do clients that are no browser (they send neither header).
 */
function siteRefusal(req: FastifyRequest, settings: SiteGuardSettings): string | null {
  const host = req.headers.host;
  if (host !== undefined) {
    const name = hostNameOf(host);
    const own = req.socket?.localAddress?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
    if (!settings.isLoopbackName(name) && name !== own && !settings.allowedHosts.includes(name))
      return `Host '${host}' is not a name of this mock: a page of another site may have made its name resolve here (DNS rebinding). A mock reached by another name is started with --allowed-host ${name}.`;
  }
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  const allowed = typeof origin === 'string' && settings.corsOrigins.includes(origin);
  if (allowed) return null;
  if (typeof origin === 'string' && origin.toLowerCase() !== `${req.protocol}://${host ?? ''}`.toLowerCase())
    return `Origin '${origin}' may not call this mock's admin API: a web page of another origin could drive it. A browser test harness of that origin is allowed with --cors-origin ${origin}.`;
  if (typeof site === 'string' && OTHER_SITES.has(site.toLowerCase()))
    return `A request of a page of another site (Sec-Fetch-Site: ${site}) may not call this mock's admin API. A browser test harness is allowed with --cors-origin <its origin>.`;
  return null;
}

/** The path of a request target, percent-decoded where it can be. */
function decodedPath(url: string): string {
  const path = url.split('?', 1)[0] ?? '';
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * Whether a request target may reach a path under `prefix`: it starts with it, it is not a path at all (the
 * absolute form, `http://host/__mock/...`, RFC 9112 3.2.2, which the router matches by its path), or its path holds a
 * percent-encoding (the router decodes one before it matches). Any other (every `/v1` request without one in its
 * path) passes without building Fastify's `routeOptions`, an object made anew on every read of it.
 */
function mayRouteUnder(url: string, prefix: string): boolean {
  if (url.startsWith(prefix) || !url.startsWith('/')) return true;
  const percent = url.indexOf('%');
  if (percent === -1) return false;
  const query = url.indexOf('?');
  return query === -1 || percent < query;
}

/** The guard as an `onRequest` hook: a refused request gets a 403 problem naming the flag that would allow it. */
export function siteGuard(settings: SiteGuardSettings) {
  const { prefix } = settings;
  // A callback hook, not an async one: it runs for every request, `/v1` ones too, and a promise each is a cost of its own.
  return function siteGuardHook(req: FastifyRequest, reply: FastifyReply, done: () => void): void {
    if (settings.loopbackHost && mayRouteUnder(req.url, prefix)) {
      // The route's own path when one matched (a percent-encoded spelling of a guarded path routes there too), else
      // the decoded path (a preflight, answered by the CORS plugin's catch-all route).
      const routed = req.routeOptions.url;
      const path = routed && routed !== '*' ? routed : decodedPath(req.url);
      const guarded = (path === prefix || path.startsWith(`${prefix}/`)) && !settings.open.has(path);
      const refusal = guarded ? siteRefusal(req, settings) : null;
      // 403 (inferred): the request is understood and may be valid; who sends it, from where, is what is refused. A
      // hook that answers does not call `done` (Fastify, "Hooks": respond to a request from a hook).
      if (refusal) {
        send(reply, plainProblem(403, refusal, refOf(req)));
        return;
      }
    }
    done();
  };
}
