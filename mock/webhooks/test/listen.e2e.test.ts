import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOnFreePort } from '../../../common/free-port.js';
import { startProcess, type Started } from '../../../test/support/process.js';
import { startHarness, type Harness } from '../../test/harness.js';
import { startReceiver, type WebhookReceiver } from '../../../common/receiver.js';
import { opsapiNodeArgs } from '../../../test/support/cli-command.js';
import { attempts, notification, tenant, until, type Tenant } from './support.js';

/** How long a test waits for a line or a state (a bound, not an expectation: it returns as soon as they come). */
const WAIT_MS = 10_000;

const root = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);
/** The listener's ready line; its one group is the port it listens on. */
const READY =
  /listening on http:\/\/127\.0\.0\.1:(\d+), subscribed to \d+ events? of org \S+ \((?:existing )?subscription ids [^)]*\)/;

/** The node arguments of `opsapi <args>` (the CLI compiled for the test run; one process, no npx) for one-shot commands. */
const opsapi = (args: string[]) => opsapiNodeArgs(args);

/**
 * Starts `opsapi listen` as `node <compiled CLI> listen ...`: the listener itself is the child process,
 * so the test's SIGTERM/SIGINT reach it. (`npx` runs the command through `sh -c`, which does not pass the signal
 * on: the listener would be orphaned instead of cleaning up.)
 */
const startListener = (args: string[], ready: RegExp) =>
  startProcess(process.execPath, opsapiNodeArgs(['listen', ...args]), ready, { cwd: root, timeoutMs: 60_000 });

/** Exit of a started process (code, signal). */
function exited(p: Started, timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    if (p.child.exitCode !== null || p.child.signalCode !== null)
      return resolve({ code: p.child.exitCode, signal: p.child.signalCode });
    const timer = setTimeout(() => reject(new Error(`no exit in ${timeoutMs} ms:\n${p.output()}`)), timeoutMs);
    p.child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

/** Lines of a process's output that match. */
const lines = (p: Started, pattern: RegExp) =>
  p
    .output()
    .split('\n')
    .filter((l) => pattern.test(l));

describe('opsapi listen, end to end', () => {
  let h: Harness;
  let t: Tenant;
  let listener: Started | undefined;
  let port: number;

  beforeAll(async () => {
    h = await startHarness({ deliveryTimeoutMs: 2000 });
    t = await tenant(h, 'listen');
    // Port 0: the OS picks one as the listener binds (one found free beforehand could be taken by another process).
    listener = await startListener(['--port', '0', '--base-url', h.url, '--org', t.org], READY);
    const listening = READY.exec(listener.output())?.[1];
    if (!listening) throw new Error(`no port in the ready line:\n${listener.output()}`);
    port = Number(listening);
  }, 90_000);

  afterAll(async () => {
    await listener?.stop();
    await h?.close();
  });

  it('subscribes to every event of the environment (latest version each) and prints a first line with the ids', async () => {
    const versions = (await t.call('GET', '/v1/notifications/events/versions', { op: 'listEventVersions' })).body as {
      eventName: string;
    }[];
    const names = new Set(versions.map((v) => v.eventName));
    const subs = (
      await t.call('GET', '/v1/notifications/webhook/subscriptions?pageSize=1000', { op: 'listWebhookSubscriptions' })
    ).body.results as any[];
    expect(subs).toHaveLength(names.size);
    expect(new Set(subs.map((s) => s.eventName))).toEqual(names);
    expect(subs.every((s) => s.endpoint === `http://127.0.0.1:${port}/`)).toBe(true);
    expect(subs.find((s) => s.eventName === 'Warehouse.Stock.Updated')?.eventVersion).toBe(2);
    const first = listener!
      .output()
      .split('\n')
      .find((l) => READY.test(l))!;
    expect(first).toContain(`subscribed to ${names.size} events of org ${t.org}`);
    for (const s of subs) expect(first).toContain(s.id);
  });

  it('prints a triggered event as verified; the notification is Success with one attempt', async () => {
    const { stdout } = await run(
      process.execPath,
      opsapi(['trigger', 'Warehouse.Shipment.Shipped', '--base-url', h.url, '--org', t.org]),
      { cwd: root, timeout: 60_000 },
    );
    const [, eventId, id] = /event (evt_\S+) -> 1 notification \((ntf_\S+)\)/.exec(stdout) ?? [];
    expect(eventId, stdout).toBeDefined();
    const line = await until(
      () => lines(listener!, new RegExp(`Warehouse\\.Shipment\\.Shipped v1 ${eventId} verified`))[0],
      WAIT_MS,
      'the verified line',
    );
    expect(line).toMatch(
      new RegExp(`^\\d{2}:\\d{2}:\\d{2}\\.\\d{3} Warehouse\\.Shipment\\.Shipped v1 ${eventId} verified shipmentId=`),
    );

    const n = await until(
      async () => {
        const one = await notification(t, id!);
        return one.status === 'Success' ? one : undefined;
      },
      WAIT_MS,
      'Success',
    );
    expect(n).toMatchObject({ eventId, attemptCount: 1 });
    expect((await attempts(t, id!)).map((a) => [a.number, a.trigger, a.responseStatus, a.errorKind])).toEqual([
      [1, 'Scheduled', 200, null],
    ]);

    // A manual retry re-delivers the same event: reported as a duplicate, not as a second new event.
    expect(
      (await t.call('POST', `/v1/notifications/webhook/${id}/retry`, { op: 'retryWebhookNotification' })).status,
    ).toBe(202);
    await until(() => lines(listener!, new RegExp(`${eventId} duplicate`))[0], WAIT_MS, 'the duplicate line');
    expect(lines(listener!, new RegExp(`${eventId} verified`))).toHaveLength(1);
    await h.mock.control.idle();
    expect(await notification(t, id!)).toMatchObject({ status: 'Success', attemptCount: 2 });
    expect((await attempts(t, id!)).map((a) => [a.trigger, a.responseStatus])).toEqual([
      ['Scheduled', 200],
      ['Manual', 200],
    ]);
  });

  it('answers 401 to a forged request and prints a warning', async () => {
    const before = lines(listener!, /warning/).length;
    const body = JSON.stringify({
      id: 'evt_forged',
      eventName: 'Warehouse.Shipment.Shipped',
      eventVersion: 1,
      occurredAt: new Date().toISOString(),
      orgCode: t.org,
      data: {},
    });
    const res = await request(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-hmac-signature': 'f'.repeat(64), 'x-event-id': 'evt_forged' },
    });
    expect(res.statusCode).toBe(401);
    await res.body.dump();
    await until(() => lines(listener!, /warning/).length > before, WAIT_MS, 'the warning');
    expect(lines(listener!, /warning/).at(-1)).toMatch(/rejected POST \/ .*invalid signature/);
    expect(lines(listener!, /evt_forged verified/)).toHaveLength(0);
  });

  it('on SIGTERM deletes its subscriptions and exits 0', async () => {
    const p = listener!;
    listener = undefined;
    p.child.kill('SIGTERM');
    const { code } = await exited(p, 15_000);
    expect(code, p.output()).toBe(0);
    expect(p.output()).toMatch(/stopped; deleted (\d+) of \1 subscriptions/);
    const subs = await t.call('GET', '/v1/notifications/webhook/subscriptions', { op: 'listWebhookSubscriptions' });
    expect(subs.body.totalCount).toBe(0);
  });
});

describe('opsapi listen --events --json --forward-to', () => {
  let h: Harness;
  let t: Tenant;
  let app: WebhookReceiver;
  let listener: Started | undefined;

  beforeAll(async () => {
    h = await startHarness({ deliveryTimeoutMs: 2000 });
    t = await tenant(h, 'listenjson');
    app = await startReceiver(() => ({ status: 202, body: 'queued' }));
    listener = await startListener(
      [
        '--port',
        '0',
        '--base-url',
        h.url,
        '--org',
        t.org,
        '--events',
        'Warehouse.Shipment.Shipped,Warehouse.Stock.Updated@1',
        '--json',
        '--forward-to',
        `${app.url}/hooks`,
      ],
      /"type":"listening"/,
    );
  }, 90_000);

  afterAll(async () => {
    await listener?.stop();
    await h?.close();
    await app?.close();
  });

  it('subscribes to the chosen events, prints JSON lines and answers with the forward target status', async () => {
    const ready = JSON.parse(
      listener!
        .output()
        .split('\n')
        .find((l) => l.includes('"type":"listening"'))!,
    );
    expect(ready.events).toEqual([
      { eventName: 'Warehouse.Shipment.Shipped', eventVersion: 1 },
      { eventName: 'Warehouse.Stock.Updated', eventVersion: 1 },
    ]);
    expect(ready.subscriptionIds).toHaveLength(2);

    const emitted = await t.call('POST', '/__mock/events', { body: { eventName: 'Warehouse.Shipment.Shipped' } });
    const id = emitted.body.notifications[0] as string;
    const [forwarded] = await app.waitForCount(1, 10_000);
    expect(forwarded!.path).toBe('/hooks');
    expect(forwarded!.json.id).toBe(emitted.body.eventId);
    expect(typeof forwarded!.headers['x-hmac-signature']).toBe('string');
    const line = await until(
      () =>
        listener!
          .output()
          .split('\n')
          .find((l) => l.includes(emitted.body.eventId)),
      WAIT_MS,
      'the JSON line',
    );
    expect(JSON.parse(line)).toMatchObject({
      type: 'event',
      verified: true,
      eventId: emitted.body.eventId,
      eventName: 'Warehouse.Shipment.Shipped',
      eventVersion: 1,
      notificationId: id,
      forwardStatus: 202,
    });
    await h.mock.control.idle();
    expect((await attempts(t, id))[0]).toMatchObject({
      responseStatus: 202,
      responseBodyExcerpt: 'queued',
      success: true,
    });

    const p = listener!;
    listener = undefined;
    p.child.kill('SIGINT');
    expect((await exited(p, 15_000)).code).toBe(0);
    expect(
      (await t.call('GET', '/v1/notifications/webhook/subscriptions', { op: 'listWebhookSubscriptions' })).body
        .totalCount,
    ).toBe(0);
  });
});

describe('opsapi listen --subscription-id', () => {
  it('receives for an existing subscription, keeps it at exit, and refuses unknown events with exit 2', async () => {
    const h = await startHarness({ deliveryTimeoutMs: 2000 });
    try {
      const t = await tenant(h, 'listenexisting');
      // The subscription names the listener's port before it listens: a port found free, and another one (with a
      // subscription of its own) if it was taken before the listener bound it.
      const { sub, p } = await startOnFreePort(async (port) => {
        const sub = (
          await t.call('POST', '/v1/notifications/webhook/subscriptions', {
            body: { endpoint: `http://127.0.0.1:${port}/`, eventName: 'Items.Sku.Deleted', eventVersion: 1 },
            op: 'createWebhookSubscription',
          })
        ).body;
        try {
          const p = await startListener(
            ['--port', String(port), '--base-url', h.url, '--org', t.org, '--subscription-id', sub.id],
            READY,
          );
          return { sub, p };
        } catch (error) {
          await t.call('DELETE', `/v1/notifications/webhook/subscriptions/${sub.id}`, {
            op: 'deleteWebhookSubscription',
          });
          throw error;
        }
      });
      try {
        expect(p.output()).toContain(`subscribed to 1 event of org ${t.org} (existing subscription ids ${sub.id})`);
        const emitted = (await t.call('POST', '/__mock/events', { body: { eventName: 'Items.Sku.Deleted' } })).body;
        await until(
          () => lines(p, new RegExp(`Items\\.Sku\\.Deleted v1 ${emitted.eventId} verified`))[0],
          3000,
          'the verified line',
        );
      } finally {
        p.child.kill('SIGTERM');
        expect((await exited(p, 15_000)).code).toBe(0);
      }
      const subs = await t.call('GET', '/v1/notifications/webhook/subscriptions', { op: 'listWebhookSubscriptions' });
      expect(subs.body.results.map((s: any) => s.id)).toEqual([sub.id]);

      const bad = await run(
        process.execPath,
        opsapi(['listen', '--port', '0', '--base-url', h.url, '--org', t.org, '--events', 'No.Such.Event']),
        { cwd: root, timeout: 60_000 },
      ).catch((e: { code: number; stderr: string }) => e);
      expect((bad as { code: number }).code).toBe(2);
      expect((bad as { stderr: string }).stderr).toMatch(/unknown event "No\.Such\.Event"/);
    } finally {
      await h.close();
    }
  }, 90_000);
});
