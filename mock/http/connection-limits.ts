import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * What the shell reads of the connection options (mock/options.ts: `--headers-timeout`, `--request-timeout`,
 * `--idle-timeout`, `--max-connections`, `--max-connections-per-source`), all in ms but the caps.
 */
export interface ConnectionLimits {
  readonly headersTimeout: number;
  readonly requestTimeout: number;
  readonly idleTimeout: number;
  readonly maxConnections: number;
  /** 0: no cap per client address. */
  readonly maxConnectionsPerSource: number;
}

/**
 * How often node:http looks for connections past their headers or request timeout. Node's default (30 s) would let a
 * trickling connection live up to 30 s past its timeout; a quarter of the shorter timeout, at most 1 s, keeps the
 * overshoot small for a few microseconds of work per connection per look (inferred).
 */
function checkingInterval(limits: ConnectionLimits): number {
  return Math.max(25, Math.min(1000, Math.floor(Math.min(limits.headersTimeout, limits.requestTimeout) / 4)));
}

/**
 * The Fastify and node:http settings of the limits (docs/DESIGN.md, "Shared sandbox"; inferred, the reference has no
 * such bounds): headers must arrive within `headersTimeout` (a connection that sends nothing at all included), the
 * whole request within `requestTimeout`, and a kept-alive connection may stay idle `idleTimeout` between requests.
 * Each expiry answers 408 where it can and closes the connection (./app.ts `clientErrorHandler`).
 */
export function connectionSettings(limits: ConnectionLimits) {
  return {
    keepAliveTimeout: limits.idleTimeout,
    requestTimeout: limits.requestTimeout,
    http: { headersTimeout: limits.headersTimeout, connectionsCheckingInterval: checkingInterval(limits) },
  };
}

/**
 * The connection cap: node:net closes a connection accepted beyond `maxConnections` at once (its `drop` event), so a
 * client over the cap learns it straight away instead of waiting on a socket nobody reads.
 */
export function capConnections(server: Server, limits: ConnectionLimits): void {
  server.maxConnections = limits.maxConnections;
  if (limits.maxConnectionsPerSource > 0) capConnectionsPerSource(server, limits.maxConnectionsPerSource);
}

/**
 * The cap per client address (`--max-connections-per-source`): a connection beyond it from the same address is
 * destroyed as it is accepted, as node:net does beyond the global cap, before a byte of it is read. Counted per
 * connection, not per request: one map entry per address with connections open, gone when its last one closes.
 */
function capConnectionsPerSource(server: Server, cap: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const source = socket.remoteAddress;
    if (source === undefined) return;
    const count = open.get(source) ?? 0;
    if (count >= cap) {
      socket.destroy();
      return;
    }
    open.set(source, count + 1);
    socket.once('close', () => {
      const left = (open.get(source) ?? 1) - 1;
      if (left > 0) open.set(source, left);
      else open.delete(source);
    });
  });
}

/** Why the limits cannot be used together (one line naming the flags), or null. */
export function connectionLimitsRefusal(limits: ConnectionLimits): string | null {
  if (limits.requestTimeout < limits.headersTimeout)
    return `--request-timeout (${limits.requestTimeout} ms) is shorter than --headers-timeout (${limits.headersTimeout} ms): the headers are part of the request`;
  return null;
}
