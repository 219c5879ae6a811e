import type { FastifyRequest } from 'fastify';

/**
 * Where a request comes from, for the throttle of refused keys (./guard.ts): the peer's address, or behind a load
 * balancer (`--trust-proxy`) the last address of `X-Forwarded-For`, the one the balancer itself appended (inferred:
 * one trusted hop; the addresses before it are whatever the client wrote, so a guesser could vary them at will).
 * Read here rather than through Fastify's `trustProxy`, which would also make the shell trust the forwarded host and
 * protocol on every route.
 */
export function sourceOf(req: FastifyRequest, trustProxy: boolean): string {
  const peer = req.raw.socket.remoteAddress ?? 'unknown';
  if (!trustProxy) return peer;
  const forwarded = req.headers['x-forwarded-for'];
  const last = [forwarded ?? []].flat().join(',').split(',').pop()?.trim();
  return last || peer;
}
