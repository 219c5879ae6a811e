/** Webhook delivery failures to real receivers: timeouts, refused and reset connections, redirects, huge bodies. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultOptions } from '../../options.js';
import { startHarness, type Harness } from '../../test/harness.js';
import { closedPort } from '../../../common/closed-port.js';
import { startReceiver, type WebhookReceiver } from '../../../common/receiver.js';
import { advance, attempts, emit, notification, subscribe, tenant, until } from './support.js';

/** The retry schedule of a mock started without one. */
const DEFAULT_RETRY_SCHEDULE = defaultOptions().retrySchedule;

const EVENT = 'Warehouse.Shipment.Shipped';
/**
 * Long enough that a loaded machine finishes a healthy delivery well inside it (what the tests compare attempts with),
 * short enough that the tests waiting out a timeout stay quick.
 */
const TIMEOUT_MS = 2000;

describe('webhook delivery to real receivers', () => {
  let h: Harness;
  const receivers: WebhookReceiver[] = [];
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const r = await startReceiver(...args);
    receivers.push(r);
    return r;
  };

  beforeAll(async () => {
    // The default retry schedule; a short per-attempt timeout so timeouts are quick to observe.
    h = await startHarness({ deliveryTimeoutMs: TIMEOUT_MS });
    expect(h.mock.control.options.retrySchedule).toEqual(DEFAULT_RETRY_SCHEDULE);
  });

  afterAll(async () => {
    await h?.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('records ConnectionError for a closed port (connection refused), with no status', async () => {
    const t = await tenant(h);
    const closed = await closedPort();
    await subscribe(t, `http://127.0.0.1:${closed}/hook`, EVENT);
    const id = (await emit(t, EVENT)).notifications[0]!;
    await h.mock.control.idle();
    const [attempt] = await attempts(t, id);
    expect(attempt).toMatchObject({
      number: 1,
      errorKind: 'ConnectionError',
      responseStatus: null,
      responseBodyExcerpt: null,
      success: false,
    });
    expect(attempt.durationMs).toBeLessThan(TIMEOUT_MS);
    expect(await notification(t, id)).toMatchObject({ status: 'Pending', attemptCount: 1 });
  });

  it("rests a receiver's slot after a refused connection: a closed port gets its tenant's slots per pause, not a flood", async () => {
    const t = await tenant(h);
    const closed = await closedPort();
    const { deliveryConcurrencyPerEndpoint, unreachablePauseMs } = h.mock.control.options;
    const perReceiver = deliveryConcurrencyPerEndpoint ?? 8;
    expect(unreachablePauseMs).toBe(50);
    for (let i = 0; i < perReceiver * 2 + 1; i++) await subscribe(t, `http://127.0.0.1:${closed}/hook/${i}`, EVENT);
    const ids = (await emit(t, EVENT)).notifications;
    await h.mock.control.idle();
    const started = (await Promise.all(ids.map(async (id) => (await attempts(t, id))[0]))).map((a) =>
      Date.parse(a.startedAt),
    );
    started.sort((a, b) => a - b);
    // Every attempt was refused at once, yet each batch of the receiver's slots waited out the pause of the one before.
    expect(started[perReceiver]! - started[0]!).toBeGreaterThanOrEqual(unreachablePauseMs - 1);
    expect(started[perReceiver * 2]! - started[0]!).toBeGreaterThanOrEqual(2 * unreachablePauseMs - 1);
  });

  it('records ConnectionError when the receiver resets the connection', async () => {
    const t = await tenant(h);
    const r = await receiver(() => 'reset');
    await subscribe(t, r.url, EVENT);
    const id = (await emit(t, EVENT)).notifications[0]!;
    await r.waitForCount(1);
    await h.mock.control.idle();
    const [attempt] = await attempts(t, id);
    expect(attempt).toMatchObject({ errorKind: 'ConnectionError', responseStatus: null, success: false });
  });

  /**
   * One emission to a receiver that never answers, one that sends its status and a first chunk and never ends the body,
   * and a healthy one: the delivery timeout is waited out once for both tests below, each judging its own receivers
   * (inferred: a second emission waited out the same 2 s and proved nothing the first does not).
   */
  describe('attempts that time out', () => {
    let t: Awaited<ReturnType<typeof tenant>>;
    let hanging: WebhookReceiver;
    let trickle: Awaited<ReturnType<typeof startTrickle>> | undefined;
    /** The notification of each receiver, by its role. */
    const ids = { hanging: '', healthy: '', trickle: '' };
    /** The healthy notification once recorded, and the hanging one read at that moment. */
    let meanwhile: { healthy: any; hanging: any };

    beforeAll(async () => {
      t = await tenant(h);
      hanging = await receiver(() => 'hang');
      const healthy = await receiver();
      trickle = await startTrickle();
      const roles = new Map([
        [hanging.url, 'hanging'],
        [healthy.url, 'healthy'],
        [trickle.url, 'trickle'],
      ] as const);
      for (const url of roles.keys()) await subscribe(t, url, EVENT);
      const { notifications } = await emit(t, EVENT);
      expect(notifications).toHaveLength(3);
      for (const id of notifications as string[]) {
        const role = roles.get((await notification(t, id)).endpoint);
        if (role) ids[role] = id;
      }

      await healthy.waitForCount(1, TIMEOUT_MS);
      // Delivered and recorded while the other attempts are still hanging (they have no attempt recorded yet).
      const fast = await until(
        async () => {
          const n = await notification(t, ids.healthy);
          return n.status === 'Success' ? n : undefined;
        },
        TIMEOUT_MS,
        'healthy delivery recorded',
      );
      meanwhile = { healthy: fast, hanging: await notification(t, ids.hanging) };
      await h.mock.control.idle();
    });

    afterAll(async () => {
      await trickle?.close();
    });

    it('a hanging receiver costs one Timeout while a healthy receiver is delivered meanwhile', async () => {
      expect(meanwhile.healthy.attemptCount).toBe(1);
      expect(meanwhile.hanging.attemptCount).toBe(0);

      const slow = await notification(t, ids.hanging);
      expect(slow).toMatchObject({ status: 'Pending', attemptCount: 1 });
      const [attempt] = await attempts(t, ids.hanging);
      expect(attempt).toMatchObject({
        errorKind: 'Timeout',
        responseStatus: null,
        responseBodyExcerpt: null,
        success: false,
      });
      expect(attempt.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
      expect(attempt.durationMs).toBeLessThan(TIMEOUT_MS + 1500);
      expect(hanging.received).toHaveLength(1);
    });

    it('keeps the status of a response whose body never ends, as a Timeout', async () => {
      const [trickled] = await attempts(t, ids.trickle);
      expect(trickled).toMatchObject({ errorKind: 'Timeout', responseStatus: 200, success: false });
      const [silent] = await attempts(t, ids.hanging);
      expect(silent).toMatchObject({ errorKind: 'Timeout', responseStatus: null, success: false });
    });
  });

  it('never follows a redirect: a 302 is an HttpStatus failure and the target receives nothing', async () => {
    const t = await tenant(h);
    const target = await receiver();
    const r = await receiver(() => ({ status: 302, headers: { location: `${target.url}/elsewhere` }, body: 'moved' }));
    await subscribe(t, r.url, EVENT);
    const id = (await emit(t, EVENT)).notifications[0]!;
    await r.waitForCount(1);
    await h.mock.control.idle();
    const [attempt] = await attempts(t, id);
    expect(attempt).toMatchObject({
      errorKind: 'HttpStatus',
      responseStatus: 302,
      responseBodyExcerpt: 'moved',
      success: false,
    });
    expect((await notification(t, id)).status).toBe('Pending');
    // 307/308 keep the method and body: not followed either.
    r.respondWith(() => ({ status: 308, headers: { location: `${target.url}/elsewhere` } }));
    await advance(t, 5);
    const list = await attempts(t, id);
    expect(list[1]).toMatchObject({ errorKind: 'HttpStatus', responseStatus: 308, success: false });
    expect(target.received).toHaveLength(0);
  });

  it('reads a huge response body only up to a bound and stores a 1024-character excerpt', async () => {
    const t = await tenant(h);
    const huge = Buffer.alloc(5 * 1024 * 1024, 'x');
    const r = await receiver(({ index: i }) => (i === 0 ? { status: 500, body: huge } : { status: 200, body: huge }));
    await subscribe(t, r.url, EVENT);
    const id = (await emit(t, EVENT)).notifications[0]!;
    await r.waitForCount(1);
    await h.mock.control.idle();
    await advance(t, 5);
    const list = await attempts(t, id);
    expect(list).toHaveLength(2);
    for (const a of list) {
      expect(a.responseBodyExcerpt).toHaveLength(1024);
      expect(a.responseBodyExcerpt).toBe('x'.repeat(1024));
      expect(a.durationMs).toBeLessThan(TIMEOUT_MS);
    }
    expect(list.map((a) => [a.responseStatus, a.errorKind, a.success])).toEqual([
      [500, 'HttpStatus', false],
      [200, null, true],
    ]);
    expect((await notification(t, id)).status).toBe('Success');
  });
});

/** A receiver that sends a status line and one chunk, then never finishes the body. */
async function startTrickle(): Promise<{ url: string; close: () => Promise<void> }> {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
