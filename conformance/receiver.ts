import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';

/** One delivery the receiver got: the raw bytes exactly as received and the headers. */
export interface Delivery {
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
}

/**
 * The webhook receiver the runner hosts (`--webhook-host`, `--webhook-port`, `--webhook-public-url`): keeps every
 * request's raw body (signatures are verified on the bytes, never on re-serialised JSON) and answers 200.
 */
export class Receiver {
  readonly deliveries: Delivery[] = [];
  private readonly waiters: { test: (d: Delivery) => boolean; resolve: (d: Delivery) => void }[] = [];
  private server: Server | undefined;
  /** A path unique to the run, so stray requests are not taken for deliveries. */
  readonly path = `/conform-hooks/${randomBytes(6).toString('hex')}`;
  url = '';

  async start(host: string, port: number, publicUrl?: string): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= 1024 * 1024) chunks.push(chunk);
      });
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        if (req.method !== 'POST') return;
        const delivery: Delivery = { at: Date.now(), path: (req.url ?? '').split('?')[0] ?? '', headers: req.headers, raw: Buffer.concat(chunks) };
        this.deliveries.push(delivery);
        for (const waiter of [...this.waiters]) {
          if (waiter.test(delivery)) {
            this.waiters.splice(this.waiters.indexOf(waiter), 1);
            waiter.resolve(delivery);
          }
        }
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server?.once('error', reject);
      this.server?.listen(port, host, () => resolve());
    });
    const address = this.server.address();
    const actualPort = typeof address === 'object' && address ? address.port : port;
    const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
    this.url = publicUrl ? `${publicUrl.replace(/\/+$/, '')}${this.path}` : `http://${shownHost}:${actualPort}${this.path}`;
  }

  /** The first delivery (already received or still to come) that passes `test`, or undefined after `timeoutMs`. */
  waitFor(test: (d: Delivery) => boolean, timeoutMs: number): Promise<Delivery | undefined> {
    const found = this.deliveries.find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => {
      const waiter = { test, resolve: (d: Delivery) => { clearTimeout(timer); resolve(d); } };
      const timer = setTimeout(() => {
        const i = this.waiters.indexOf(waiter);
        if (i !== -1) this.waiters.splice(i, 1);
        resolve(undefined);
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections?.();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
