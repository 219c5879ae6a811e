import type { FastifyRequest } from 'fastify';

/** `host` or `host:port` (underscores too: container service names), a bracketed IPv6 literal with an optional port. */
const HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9._-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** The first value of a header that a chain of proxies may have sent as a comma-separated list or repeated. */
function firstValue(value: string | string[] | undefined): string | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  const first = raw?.split(',')[0]?.trim();
  return first === '' ? undefined : first;
}

/** The address the request reached, from the socket: the origin when the request names none (HTTP/1.0). */
function socketHost(req: FastifyRequest): string {
  const address = req.socket?.localAddress;
  if (!address) return 'localhost';
  const plain = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  const host = plain.includes(':') ? `[${plain}]` : plain;
  return req.socket.localPort ? `${host}:${req.socket.localPort}` : host;
}

/**
 * The origin a client used to reach the mock, for the `servers` of the documents it serves (`/openapi.json`,
 * `/__mock/openapi.json`, `/docs`): computed per request, so a mock on any port (`--port 0`), on another host name or
 * behind a reverse proxy names the address its caller can use. Inferred (the reference only says the base address is
 * `{base_url}`): a proxy's `X-Forwarded-Proto` (http or https) and `X-Forwarded-Host` win over the scheme and `Host`
 * the mock sees, as they do for most frameworks behind nginx, Traefik or a cloud load balancer; a value that is not a
 * plain host (and port) is ignored, and the socket's local address stands in when no usable `Host` came at all.
 */
export function requestOrigin(req: FastifyRequest): string {
  const forwardedProto = firstValue(req.headers['x-forwarded-proto'])?.toLowerCase();
  const proto = forwardedProto === 'http' || forwardedProto === 'https' ? forwardedProto : req.protocol;
  const candidates = [firstValue(req.headers['x-forwarded-host']), firstValue(req.headers.host)];
  const host = candidates.find((h): h is string => h !== undefined && HOST.test(h)) ?? socketHost(req);
  return `${proto}://${host}`;
}

/** Headers the origin depends on besides `Host` (caches keep one copy per value). */
export const ORIGIN_VARY = 'x-forwarded-host, x-forwarded-proto';
