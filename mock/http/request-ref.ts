import type { FastifyRequest } from 'fastify';
import type { RequestRef } from '../problems.js';

/** `{base_url}` of a request: the address the client used. */
export function baseUrlOf(req: FastifyRequest): string {
  return `${req.protocol}://${req.headers.host ?? `${req.hostname}`}`;
}

/** The request as `instance` names it: method and path without the query string. */
export function refOf(req: FastifyRequest): RequestRef {
  // An absolute-form target (`GET http://host/path`) names its path after the authority; `*` and other forms get a leading `/`.
  const url = req.url.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/, '');
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  return { method: req.method, path: path.startsWith('/') ? path : `/${path}` };
}
