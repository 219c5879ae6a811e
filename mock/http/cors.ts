import type { FastifyCorsOptions } from '@fastify/cors';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The mock's CORS settings (inferred: the reference says nothing of browsers; a mock is called from web apps under
 * development on other origins): every origin is reflected, the methods of the contract and OPTIONS, the request
 * headers the API reads, and the response headers a client needs to read.
 */
export const CORS: FastifyCorsOptions & { readonly exposedHeaders: string[] } = {
  origin: true,
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
  // `x-admin-key`: a browser-based harness may call a keyed admin API from another origin (docs/DESIGN.md, "Shared sandbox").
  allowedHeaders: ['authorization', 'content-type', 'x-api-key', 'prefer', 'x-admin-key'],
  exposedHeaders: ['retry-after', 'location', 'preference-applied'],
  maxAge: 600,
  // OPTIONS is advertised in every Allow header: answer it with 204, not a text/plain 400, when it is no full preflight.
  strictPreflight: false,
};

/**
 * The CORS headers of an answer the router gives before any hook runs (a path it cannot decode or too long a
 * segment: Fastify's `frameworkErrors`), as @fastify/cors sets them on every other answer, so a browser can read
 * that problem too.
 */
export function corsHeadersOf(req: FastifyRequest, reply: FastifyReply): void {
  const origin = req.headers.origin;
  if (typeof origin !== 'string' || origin === '') return;
  reply.header('access-control-allow-origin', origin);
  reply.header('access-control-expose-headers', CORS.exposedHeaders.join(', '));
  reply.header('vary', 'Origin');
}
