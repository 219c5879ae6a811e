import type { FastifyInstance } from 'fastify';
import { request } from 'undici';

/** One request as a harness sends it: the path with its query, the headers, the body text. */
export interface Outgoing {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** What came back: the status, every header as one string, the body text. */
export interface Incoming {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** How a harness reaches the mock. */
export type Send = (req: Outgoing) => Promise<Incoming>;

/**
 * The origin of requests made with `app.inject()`: light-my-request sends `Host: localhost:80` when the URL names no
 * host, so `{base_url}` (problem types) is this origin (inferred from light-my-request's defaults; a test pins it).
 */
export const INJECT_ORIGIN = 'http://localhost:80';

function flatten(headers: Record<string, string | string[] | number | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined) flat[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  return flat;
}

/** Over a real loopback socket to a listening mock (undici), for what needs one: the wire, processes, receivers. */
export function overSocket(origin: string): Send {
  return async ({ method, path, headers, body }) => {
    const res = await request(`${origin}${path}`, {
      method: method as never,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    return { status: res.statusCode, headers: flatten(res.headers), text: await res.body.text() };
  };
}

/**
 * Through Fastify's `app.inject()`: the same router, hooks, validation and serializers as a socket, without one
 * (no port, no connection, no HTTP parser), so HTTP-shell tests run in-process and fast.
 */
export function throughInject(app: FastifyInstance): Send {
  return async ({ method, path, headers, body }) => {
    const res = await app.inject({
      method: method as never,
      url: path,
      headers,
      ...(body !== undefined ? { payload: body } : {}),
    });
    return {
      status: res.statusCode,
      headers: flatten(res.headers as Record<string, string | string[] | number | undefined>),
      text: res.body,
    };
  };
}
