import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';

/**
 * A loopback forwarder in front of a mock that makes a token expire DURING a run, whatever the speed of the machine:
 * the first request carrying `token` (the run's proof read) goes through unchanged; in every later one the gate puts
 * `expired` in its place, a token of the same claims that expired already, so the mock itself refuses it as it
 * refuses any expired token (its own 401 problem). Requests carrying other credentials pass unchanged.
 */
interface ExpiringGate {
  url: string;
  close(): Promise<void>;
}

/** Hop-by-hop headers (RFC 9110 section 7.6.1) and the ones recomputed. */
const DROPPED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'content-length',
]);

function forwardHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined && !DROPPED.has(k)) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export async function startExpiringGate(target: string, token: string, expired: string): Promise<ExpiringGate> {
  const agent = new Agent({ connections: 32 });
  let seen = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const sent = forwardHeaders(req.headers);
      if (sent.authorization === `Bearer ${token}` && seen++ > 0) sent.authorization = `Bearer ${expired}`;
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      try {
        const up = await request(`${target}${req.url ?? '/'}`, {
          method: (req.method ?? 'GET') as never,
          headers: sent,
          dispatcher: agent,
          ...(body ? { body } : {}),
        });
        const payload = Buffer.from(await up.body.arrayBuffer());
        const headers: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !DROPPED.has(k)) headers[k] = v;
        if (payload.length > 0 || up.statusCode !== 204) headers['content-length'] = String(payload.length);
        res.writeHead(up.statusCode, headers).end(payload);
      } catch (error) {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`gate: ${(error as Error).message}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await agent.close();
    },
  };
}
