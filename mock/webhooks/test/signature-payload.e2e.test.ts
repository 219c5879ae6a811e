import { execFileSync } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_CATALOG } from '../../../spec/events/catalog.js';
import { sharedContract } from '../../../spec/shared-contract.js';
import { startHarness, type Harness } from '../../test/harness.js';
import { startReceiver, type WebhookReceiver } from '../../../common/receiver.js';
import { emit, notification, payloadComponent, subscribe, tenant, webhookSecret } from './support.js';

const { validator } = sharedContract();

/** Whether `openssl` can be run. */
function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('what a receiver gets: signed raw bytes and contract payloads', () => {
  let h: Harness;
  let r: WebhookReceiver;
  let dir: string;

  beforeAll(async () => {
    h = await startHarness({ deliveryTimeoutMs: 2000 });
    r = await startReceiver();
    dir = mkdtempSync(join(tmpdir(), 'opsapi-sig-'));
  });

  afterAll(async () => {
    await h?.close();
    await r?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs the raw body: HMAC-SHA256 hex checked independently with node:crypto and with openssl', async () => {
    const t = await tenant(h);
    // Data with non-ASCII characters and characters JSON may escape: the bytes, not a re-serialisation, are signed.
    await subscribe(t, `${r.url}/sig`, 'Warehouse.Shipment.Shipped');
    const data = {
      shipmentId: 'SHP-Crème-brûlée-🍮',
      salesOrderId: 'SO "quoted" \\ \u2028',
      shippedAt: '2026-01-02T03:04:05.000Z',
    };
    const before = r.received.length;
    const { eventId, notifications } = await emit(t, 'Warehouse.Shipment.Shipped', { data });
    const [delivery] = (await r.waitForCount(before + 1)).slice(before);
    const secret = await webhookSecret(t);

    const header = delivery!.headers['x-hmac-signature'];
    expect(header).toMatch(/^[0-9a-f]{64}$/);
    const expected = createHmac('sha256', secret).update(delivery!.raw).digest('hex');
    expect(timingSafeEqual(Buffer.from(header as string, 'hex'), Buffer.from(expected, 'hex'))).toBe(true);
    expect(header).toBe(expected);
    // Another secret or one changed byte does not verify.
    expect(createHmac('sha256', `${secret}x`).update(delivery!.raw).digest('hex')).not.toBe(header);
    const tampered = Buffer.from(delivery!.raw);
    const at = tampered.length - 2;
    tampered[at] = tampered[at]! ^ 1;
    expect(createHmac('sha256', secret).update(tampered).digest('hex')).not.toBe(header);

    expect(delivery!.headers['x-event-id']).toBe(eventId);
    expect(delivery!.json.id).toBe(eventId);
    expect(delivery!.json.data).toEqual(data);
    // The bytes are the stored payload, compact JSON in UTF-8.
    const stored = await notification(t, notifications[0]!);
    expect(delivery!.raw.toString('utf8')).toBe(JSON.stringify(stored.payload));

    if (hasOpenssl()) {
      const file = join(dir, 'body.json');
      writeFileSync(file, delivery!.raw);
      const out = execFileSync('openssl', ['dgst', '-sha256', '-hmac', secret, file], { encoding: 'utf8' });
      const hex = /=\s*([0-9a-f]{64})\s*$/.exec(out)?.[1];
      expect(hex, out).toBe(header);
    } else if (process.env.CI === 'true') {
      throw new Error('openssl is required in CI (CI=true) for the independent signature check');
    } else {
      console.warn('[skipped] openssl check of the webhook signature: openssl is not installed');
    }
  });

  it('uses a different secret per tenant', async () => {
    const a = await tenant(h);
    const b = await tenant(h);
    expect(await webhookSecret(a)).not.toBe(await webhookSecret(b));
  });

  it('delivers payloads valid against WebhookPayload and the per-event component, for every event version of the catalog', async () => {
    const t = await tenant(h);
    const versions = EVENT_CATALOG.flatMap((e) =>
      e.versions.map((v) => ({ eventName: e.eventName, eventVersion: v.version })),
    );
    expect(versions.length).toBeGreaterThan(30);
    for (const v of versions)
      await subscribe(t, `${r.url}/all/${v.eventName}/${v.eventVersion}`, v.eventName, v.eventVersion);
    const before = r.received.length;
    let expectedDeliveries = 0;
    for (const e of EVENT_CATALOG) expectedDeliveries += (await emit(t, e.eventName)).notifications.length;
    expect(expectedDeliveries).toBe(versions.length);
    const got = (await r.waitForCount(before + expectedDeliveries, 10_000)).slice(before);
    for (const d of got) {
      const [, , eventName, version] = d.path.split('/');
      const component = payloadComponent(eventName!, Number(version));
      expect(d.json, d.path).toMatchObject({ eventName, eventVersion: Number(version), orgCode: t.org });
      expect(validator.validateSchema('WebhookPayload', d.json), d.path).toEqual({ ok: true });
      expect(validator.validateSchema(component, d.json), `${component}: ${d.raw.toString('utf8')}`).toEqual({
        ok: true,
      });
      expect(d.headers['x-event-name']).toBe(eventName);
      expect(d.headers['x-event-version']).toBe(version);
    }
  });
});
