import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';

/**
 * A loopback HTTP proxy for tests that stands for a faithful real server: it forwards every request to `target`
 * unchanged and adds one member the contract does not name to EVERY JSON object of every `/v1` answer (page
 * envelopes, list items, nested objects, problems). `/__mock/*` passes through unchanged (the runner mints tokens
 * and reads fixtures through it). Webhook deliveries go from the target to their receiver and are not proxied.
 */
export interface FieldAddingProxy {
  url: string;
  /** Answers forwarded so far, and how many of them had members added. */
  readonly forwarded: number;
  readonly decorated: number;
  close(): Promise<void>;
}

/** Hop-by-hop headers (RFC 9110 section 7.6.1) and the ones the proxy recomputes. */
const DROPPED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
  'content-length',
]);

/** Adds `name: value` to every object of a JSON value, at any depth. */
function addToEveryObject(value: unknown, name: string, added: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => addToEveryObject(v, name, added));
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = addToEveryObject(v, name, added);
  out[name] = added;
  return out;
}

function forwardHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined && !DROPPED.has(k)) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/**
 * Starts the proxy on 127.0.0.1 (any free port). The added member is constant (`name: value`), so list items keep
 * one identity across pages and requests. The `Host` header is forwarded, so problem `type` addresses name the proxy.
 */
export async function startFieldAddingProxy(
  target: string,
  name = 'x_proxy_note',
  value: unknown = 'added by the proxy',
): Promise<FieldAddingProxy> {
  const agent = new Agent({ connections: 64, headersTimeout: 30_000, bodyTimeout: 30_000 });
  let forwarded = 0;
  let decorated = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      request(`${target}${req.url ?? '/'}`, {
        method: (req.method ?? 'GET') as never,
        headers: forwardHeaders(req.headers),
        dispatcher: agent,
        ...(body ? { body } : {}),
      })
        .then(async (up) => {
          let payload = Buffer.from(await up.body.arrayBuffer());
          const type = String(up.headers['content-type'] ?? '');
          if ((req.url ?? '').startsWith('/v1') && /json/i.test(type) && payload.length > 0) {
            try {
              payload = Buffer.from(
                JSON.stringify(addToEveryObject(JSON.parse(payload.toString('utf8')), name, value)),
              );
              decorated++;
            } catch {
              // Not JSON after all: forwarded as it came.
            }
          }
          forwarded++;
          const headers: Record<string, string | string[]> = {};
          for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !DROPPED.has(k)) headers[k] = v;
          if (payload.length > 0 || up.statusCode !== 204) headers['content-length'] = String(payload.length);
          res.writeHead(up.statusCode, headers).end(payload);
        })
        .catch((error: Error) => {
          if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(`proxy: ${error.message}`);
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get forwarded() {
      return forwarded;
    },
    get decorated() {
      return decorated;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await agent.close();
    },
  };
}
