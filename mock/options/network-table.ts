import type { PrivateEndpointAllowance } from '../webhooks/address.js';
import { duration, integer, list, option } from './kinds.js';
import { collectAllowance, parseAllowance, parseHosts, parseOrigins } from './network.js';

/**
 * The network options of the mock, rows of the one table of options (mock/options.ts spreads them in place, so their
 * flags, variables and `startMock` names come from there like every other option's): what webhooks may reach, how
 * long a client may take to send a request, how many connections are open at once, and who may call the admin API
 * of a loopback mock from a browser (docs/DESIGN.md, "Shared sandbox"). Inferred: the reference has none of these.
 */
export const NETWORK_OPTIONS = {
  /**
   * Exceptions to the SSRF guard (docs/DESIGN.md, "Shared sandbox"), which is on by default on a non-loopback host:
   * alone, every private address; with a list, only the CIDRs, addresses and host names named (a receiver on the test
   * host of a containerised mock: `host.docker.internal`).
   */
  allowPrivateEndpoints: option({
    flag: '--allow-private-endpoints [cidr|host,...]',
    env: 'ALLOW_PRIVATE_ENDPOINTS',
    help: 'let webhooks reach private addresses on a non-loopback --host: alone, all of them; with a list, only the CIDRs and host names named (repeatable)',
    value: list<string, PrivateEndpointAllowance>({
      parse: parseAllowance,
      collect: collectAllowance,
      expects: "an array of CIDRs, addresses or host names, or ['all']",
      item: 'a CIDR, an address, a host name or all',
      refusal: 'is not a CIDR, an address, a host name or all',
      whenBare: 'all',
    }),
    default: collectAllowance([]),
  }),
  /**
   * Timeouts and a connection cap (docs/DESIGN.md, "Shared sandbox"; inferred, the reference has none): a connection
   * that trickles its headers or body is closed, one idle between requests too, and at the cap a new connection is
   * closed at once rather than left waiting, so slow clients cannot hold every socket of the process.
   */
  headersTimeout: option({
    flag: '--headers-timeout <duration>',
    env: 'HEADERS_TIMEOUT',
    help: "time a request's headers may take to arrive (a bare number is ms)",
    value: duration({ unitless: 'ms', into: 'ms', min: 100, max: 600_000 }),
    default: 10_000,
  }),
  requestTimeout: option({
    flag: '--request-timeout <duration>',
    env: 'REQUEST_TIMEOUT',
    help: 'time a whole request (headers and body) may take to arrive, at least --headers-timeout (a bare number is ms)',
    value: duration({ unitless: 'ms', into: 'ms', min: 100, max: 600_000 }),
    default: 30_000,
  }),
  idleTimeout: option({
    flag: '--idle-timeout <duration>',
    env: 'IDLE_TIMEOUT',
    help: 'time a kept-alive connection may stay idle between requests (a bare number is ms)',
    value: duration({ unitless: 'ms', into: 'ms', min: 100, max: 600_000 }),
    default: 5_000,
  }),
  maxConnections: option({
    flag: '--max-connections <n>',
    env: 'MAX_CONNECTIONS',
    help: 'connections open at once; beyond it a new one is closed at once',
    value: integer(1, 1_000_000),
    default: 800,
  }),
  /**
   * The connections one client address may hold open at once (0: no cap of its own), so that one source trickling
   * requests cannot take every connection `--max-connections` allows and shut out every other tenant (the audit's 1,100
   * slow connections from one address). Off by default: behind a proxy or load balancer every client comes from its
   * address, and on loopback every local client shares one; an operator exposing the mock directly sets it.
   */
  maxConnectionsPerSource: option({
    flag: '--max-connections-per-source <n>',
    env: 'MAX_CONNECTIONS_PER_SOURCE',
    help: 'connections one client address may hold open at once; beyond it a new one from that address is closed at once (0: no cap per address; behind a proxy all clients share its address)',
    value: integer(0, 1_000_000),
    default: 0,
  }),
  /**
   * Web origins whose pages may call `/__mock/*` of a loopback mock (a browser test harness); any other origin is
   * refused there (mock/http/site-guard.ts). `/v1` answers every origin.
   */
  corsOrigin: option({
    flag: '--cors-origin <origin,...>',
    env: 'CORS_ORIGIN',
    help: 'web origins allowed to call /__mock/* of a loopback mock from a browser, e.g. http://localhost:5173 (repeatable)',
    value: list<string, readonly string[]>({
      parse: parseOrigins,
      collect: (origins) => [...origins],
      expects: 'an array of web origins such as http://localhost:5173',
      item: 'a web origin',
      refusal: 'is not a web origin such as http://localhost:5173',
    }),
    default: [],
  }),
  /** Host names besides loopback ones that a loopback mock answers `/__mock/*` under (the DNS-rebinding guard). */
  allowedHost: option({
    flag: '--allowed-host <name,...>',
    env: 'ALLOWED_HOST',
    help: 'host names a loopback mock answers /__mock/* under besides localhost and loopback addresses (repeatable)',
    value: list<string, readonly string[]>({
      parse: parseHosts,
      collect: (hosts) => [...hosts],
      expects: 'an array of host names',
      item: 'a host name',
      refusal: 'is not a host name (no scheme, no port)',
    }),
    default: [],
  }),
};
