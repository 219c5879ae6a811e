import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';

/**
 * A webhook receiver on 127.0.0.1 that checks every delivery's `X-HMAC-Signature` (lowercase hex HMAC-SHA256 of the
 * raw body with the tenant's secret; the tenant is the last path segment of the endpoint). Verified independently of
 * the mock's own code.
 */
export interface SoakReceiver {
  readonly url: string;
  received: number;
  signatureFailures: number;
  /** org -> webhook secret. */
  readonly secrets: Map<string, string>;
  close(): Promise<void>;
}

function verify(body: Buffer, header: string | string[] | undefined, secret: string): boolean {
  if (typeof header !== 'string' || !/^[0-9a-f]{64}$/.test(header)) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(Buffer.from(header, 'hex'), expected);
}

export async function startReceiver(): Promise<SoakReceiver> {
  const secrets = new Map<string, string>();
  const state = { received: 0, signatureFailures: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.received++;
      const org = decodeURIComponent((req.url ?? '').split('/').pop() ?? '');
      const secret = secrets.get(org);
      if (!secret || !verify(Buffer.concat(chunks), req.headers['x-hmac-signature'], secret)) state.signatureFailures++;
      res.statusCode = 204;
      res.end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/hook`,
    secrets,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
