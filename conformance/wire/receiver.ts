import { randomBytes } from 'node:crypto';
import { startReceiver, type Delivery, type WebhookReceiver } from '../../common/receiver.js';
export type { Delivery };

/** Bytes of a delivery kept (a notification is a few kilobytes; more is not a notification). */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The webhook receiver the runner hosts (`--webhook-host`, `--webhook-port`, `--webhook-public-url`), on
 * common/receiver.ts: keeps every request's raw body (signatures are verified on the bytes, never on re-serialised
 * JSON) and answers 200. Every request that can carry a body counts as a delivery: the reference says "an HTTP request
 * with a JSON body" (Events, point 4) and names no method; GET, HEAD and OPTIONS (endpoint probes) do not count.
 */
export class Receiver {
  private inner: WebhookReceiver | undefined;
  /** A path unique to the run, so stray requests are not taken for deliveries. */
  readonly path = `/conform-hooks/${randomBytes(6).toString('hex')}`;
  /** Where deliveries are expected: the public URL (`--webhook-public-url`) when given, with the path of the run. */
  url = '';

  /**
   * Where the receiver listens on this machine (`http://host:port`). With `--webhook-public-url` but no
   * `--webhook-port` the port is chosen when it starts, so the runner tells it (a tunnel is pointed at it).
   */
  get listening(): string {
    return this.inner?.url ?? '';
  }

  /** The deliveries received so far (the most recent thousand). */
  get deliveries(): readonly Delivery[] {
    return (this.inner?.received ?? []).filter(isDelivery);
  }

  async start(host: string, port: number, publicUrl?: string): Promise<void> {
    this.inner = await startReceiver({
      host,
      port,
      maxBodyBytes: MAX_BODY_BYTES,
      respond: () => ({ status: 200, body: 'ok', headers: { 'content-type': 'text/plain' } }),
    });
    this.url = publicUrl ? `${publicUrl.replace(/\/+$/, '')}${this.path}` : `${this.inner.url}${this.path}`;
  }

  /** The first delivery (already received or still to come) that passes `test`, or undefined after `timeoutMs`. */
  async waitFor(test: (d: Delivery) => boolean, timeoutMs: number): Promise<Delivery | undefined> {
    const waited = await this.inner?.waitFor((d) => isDelivery(d) && test(d), timeoutMs);
    return waited?.ok ? waited.delivery : undefined;
  }

  async close(): Promise<void> {
    await this.inner?.close();
  }
}

const isDelivery = (d: Delivery) => !['GET', 'HEAD', 'OPTIONS'].includes(d.method);
