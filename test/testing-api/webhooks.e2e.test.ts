import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_CATALOG } from 'opsapi';
import { startMock, type TestMock, type TestTenant } from 'opsapi/testing';

const SHIPPED = 'Warehouse.Shipment.Shipped';
const CREATED = 'Items.Sku.Created';
let mock: TestMock;

beforeAll(async () => {
  mock = await startMock({ rateLimit: 'off' });
});
afterAll(() => mock?.close());

/** A client call with the tenant's admin token; answers the status and the parsed body. */
async function call(t: TestTenant, method: string, path: string, body?: unknown) {
  const res = await fetch(`${mock.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${await t.token()}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Emits a catalog event for the tenant (`POST /__mock/events`, like `stripe trigger`). */
async function emit(t: TestTenant, eventName: string): Promise<{ eventId: string; notifications: string[] }> {
  const emitted = await call(t, 'POST', '/__mock/events', { eventName });
  expect(emitted.status).toBe(202);
  return emitted.body;
}

describe('t.webhooks.listen()', () => {
  it('subscribes to every catalog event at its latest version when none is named, without any request of the tenant', async () => {
    const t = mock.tenant();
    const hooks = await t.webhooks.listen();
    try {
      expect(hooks.subscriptions.map((s) => s.eventName)).toEqual(EVENT_CATALOG.map((e) => e.eventName));
      expect(hooks.subscriptions.find((s) => s.eventName === CREATED)?.eventVersion).toBe(2);
      expect(hooks.subscriptions.every((s) => s.endpoint === hooks.url)).toBe(true);
      expect(t.requests()).toEqual([]);
      expect(t.coverage().summary.operations.hit).toBe(0);
    } finally {
      await hooks.close();
    }
  });

  it('refuses an event the catalog does not have, naming it', async () => {
    const t = mock.tenant();
    await expect(t.webhooks.listen({ events: ['Items.Sku.Exploded'] })).rejects.toThrow(
      /events\[0\] 'Items.Sku.Exploded' is not an event of the catalog/,
    );
    await expect(t.webhooks.listen({ events: [{ eventName: CREATED, eventVersion: 9 }] })).rejects.toThrow(
      /Items.Sku.Created has no version 9; it has 1, 2/,
    );
  });

  it('returns deliveries verified with the tenant secret, each once, keeping those of other events for later calls', async () => {
    const t = mock.tenant();
    const hooks = await t.webhooks.listen({ events: [SHIPPED, CREATED] });
    try {
      const shipped = await emit(t, SHIPPED);
      const created = await emit(t, CREATED);
      const second = await hooks.next({ eventName: CREATED });
      expect(second).toMatchObject({ id: created.eventId, eventName: CREATED, eventVersion: 2, verified: true });
      expect(second.notificationId).toBe(created.notifications[0]);
      expect(second.headers['x-hmac-signature']).toMatch(/^[0-9a-f]{64}$/);
      expect(second.data).toEqual(expect.any(Object));
      expect(await hooks.next()).toMatchObject({ id: shipped.eventId, eventName: SHIPPED, verified: true });
      const nothingLeft = hooks.next({ timeoutMs: 200 });
      await expect(nothingLeft).rejects.toThrow(/no new delivery within 200 ms \(2 arrived, the last: /);
      await expect(nothingLeft).rejects.toThrow(/Items.Sku.Created v2 \(event .*, signature valid, already consumed\)/);
      await expect(hooks.next({ eventName: 'People.Employee.Hired' })).rejects.toThrow(/not subscribed to/);
    } finally {
      await hooks.close();
    }
  });

  it('walks a failing receiver through the whole retry schedule to Failure, and a manual retry to a healthy one ends Success', async () => {
    const t = mock.tenant();
    const schedule = mock.control.options.retrySchedule;
    const hooks = await t.webhooks.listen({ events: [SHIPPED] });
    try {
      hooks.respondWith(500);
      const { eventId, notifications } = await emit(t, SHIPPED);
      const id = notifications[0]!;
      // The first attempt is due at once; the virtual clock then runs every retry (the schedule sums to ~28 hours).
      expect(await hooks.next()).toMatchObject({ id: eventId, notificationId: id });
      await t.clock.advance(schedule.reduce((sum, s) => sum + s, 0) + 60);
      for (let attempt = 2; attempt <= schedule.length; attempt++)
        expect(await hooks.next(), `attempt ${attempt}`).toMatchObject({ id: eventId, verified: true });
      expect((await call(t, 'GET', `/v1/notifications/webhook/${id}`)).body).toMatchObject({
        status: 'Failure',
        attemptCount: schedule.length,
        nextAttemptAt: null,
      });

      hooks.respondWith(200);
      expect((await call(t, 'POST', `/v1/notifications/webhook/${id}/retry`)).status).toBe(202);
      expect(await hooks.next()).toMatchObject({ id: eventId, notificationId: id, verified: true });
      await mock.control.idle();
      expect((await call(t, 'GET', `/v1/notifications/webhook/${id}`)).body).toMatchObject({
        status: 'Success',
        attemptCount: schedule.length + 1,
      });
    } finally {
      await hooks.close();
    }
  });

  it('stays subscribed across t.reset(), and close() deletes its subscriptions and stops the receiver', async () => {
    const t = mock.tenant();
    const hooks = await t.webhooks.listen({ events: [SHIPPED] });
    const before = hooks.subscriptions;
    await t.reset();
    expect(hooks.subscriptions).toHaveLength(1);
    await emit(t, SHIPPED);
    expect(await hooks.next()).toMatchObject({ eventName: SHIPPED, verified: true });
    await hooks.close();
    expect(before).toHaveLength(1);
    expect((await call(t, 'GET', '/v1/notifications/webhook/subscriptions')).body.results).toEqual([]);
    await expect(hooks.next()).rejects.toThrow(/the listener is closed/);
    await expect(fetch(hooks.url, { method: 'POST' })).rejects.toThrow();
  });
});

describe('closing a mock with listeners still open', () => {
  it('closes them, so nothing keeps listening', async () => {
    const own = await startMock();
    const hooks = await own.tenant().webhooks.listen({ events: [SHIPPED] });
    await own.close();
    await expect(fetch(hooks.url, { method: 'POST' })).rejects.toThrow();
    expect(() => own.tenant()).toThrow(/the mock is closed/);
  });

  it('refuses to listen on a mock that never delivers to loopback (blockPrivateEndpoints)', async () => {
    const guarded = await startMock({ blockPrivateEndpoints: true });
    try {
      await expect(guarded.tenant().webhooks.listen()).rejects.toThrow(/blockPrivateEndpoints/);
    } finally {
      await guarded.close();
    }
  });
});
