import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../../common/closed-port.js';
import { startListening } from '../../../test/support/process.js';
import { opsapiNodeArgs } from '../../../test/support/cli-command.js';
import { adminClaims } from '../../auth/presets.js';
import { mintToken } from '../../auth/tokens.js';
import { DEFAULT_JWT_SECRET } from '../../options.js';
import { startMock, type RunningMock } from '../../server.js';
import { StateFileError } from '../../store/records.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'opsapi-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function call(base: string, token: string, method: string, path: string, body?: unknown) {
  const res = await request(`${base}${path}`, {
    method: method as never,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? (JSON.parse(text) as any) : undefined };
}

async function stockOf(base: string, token: string, reference: string): Promise<number> {
  const page = await call(
    base,
    token,
    'GET',
    `/v1/items/skus?filterBy=${encodeURIComponent(`reference[Equals]${reference}`)}`,
  );
  return page.body.results[0].totalStock as number;
}

describe('state that survives restarts (--state FILE)', () => {
  it('restores every kind of write after a graceful shutdown, and id sequences continue', async () => {
    const file = join(dir, 'graceful.json');
    const token = await mintToken(DEFAULT_JWT_SECRET, adminClaims('persist-a'));
    let mock: RunningMock = await startMock({ port: 0, rateLimit: null, stateFile: file });
    let base = mock.url;
    const m = (await call(base, token, 'GET', '/__mock/fixtures')).body;
    expect(
      (
        await call(base, token, 'PUT', `/v1/items/skus/${m.sku.reference}/stock`, {
          locationReference: m.sku.locationReference,
          lotId: m.sku.lotId,
          stock: 777,
        })
      ).status,
    ).toBe(204);
    const inspection = await call(
      base,
      token,
      'PUT',
      `/v1/items/skus/${m.sku.reference}/inspections/${m.sku.inspectionIds[0]}`,
      { name: 'Persisted check', isMandatory: true },
    );
    expect(inspection.status).toBe(200);
    expect((await call(base, token, 'DELETE', `/v1/items/families/${m.deletableFamilyId}`)).status).toBe(204);
    const line = m.purchaseOrderLine;
    expect(
      (
        await call(base, token, 'PUT', `/v1/planning/purchaseOrders/${line.purchaseOrderId}/lines/${line.lineId}`, {
          comment: 'persisted',
        })
      ).status,
    ).toBe(200);
    const key = await call(base, token, 'POST', '/v1/access/apiKeys', { name: 'persisted key' });
    const sub = await call(base, token, 'POST', '/v1/notifications/webhook/subscriptions', {
      endpoint: 'http://127.0.0.1:9/hook',
      eventName: 'Warehouse.Shipment.Shipped',
      eventVersion: 1,
    });
    expect(sub.status).toBe(201);
    await call(base, token, 'POST', '/__mock/clock', { advanceSeconds: 3600 });
    const before = await stockOf(base, token, m.sku.reference);
    await mock.close();

    mock = await startMock({ port: 0, rateLimit: null, stateFile: file });
    base = mock.url;
    expect(mock.restored?.tenants).toBe(1);
    expect(await stockOf(base, token, m.sku.reference)).toBe(before);
    expect((await call(base, token, 'DELETE', `/v1/items/families/${m.deletableFamilyId}`)).body.code).toBe(
      'ITEMS.FAMILY.ALREADY_DELETED',
    );
    expect(
      (
        await call(base, token, 'PUT', `/v1/planning/purchaseOrders/${line.purchaseOrderId}/lines/${line.lineId}`, {
          quantity: 1e9,
        })
      ).body.comment,
    ).toBe('persisted');
    const keyed = await request(`${base}/v1/items/skus?pageSize=1`, { headers: { 'x-api-key': key.body.key } });
    expect(keyed.statusCode).toBe(200);
    await keyed.body.dump();
    const subs = await call(base, token, 'GET', '/v1/notifications/webhook/subscriptions');
    expect(subs.body.results.map((s: any) => s.id)).toEqual([sub.body.id]);
    const again = await call(base, token, 'POST', '/v1/notifications/webhook/subscriptions', {
      endpoint: 'http://127.0.0.1:9/hook2',
      eventName: 'Warehouse.Shipment.Shipped',
      eventVersion: 1,
    });
    expect(again.body.id).not.toBe(sub.body.id);
    const clock = await call(base, token, 'GET', '/__mock/clock');
    expect(clock.body.offsetSeconds).toBe(3600);
    await mock.close();
  });

  it('resumes pending webhook retries on their schedule after a restart', async () => {
    const file = join(dir, 'retries.json');
    const token = await mintToken(DEFAULT_JWT_SECRET, adminClaims('persist-b'));
    const unreachable = await closedPort();
    const options = { port: 0, rateLimit: null, stateFile: file, retrySchedule: [0, 60, 60], deliveryTimeoutMs: 500 };
    let mock = await startMock(options);
    await call(mock.url, token, 'POST', '/v1/notifications/webhook/subscriptions', {
      endpoint: `http://127.0.0.1:${unreachable}/hook`,
      eventName: 'Warehouse.Shipment.Shipped',
      eventVersion: 1,
    });
    const emitted = await call(mock.url, token, 'POST', '/__mock/events', { eventName: 'Warehouse.Shipment.Shipped' });
    const id = emitted.body.notifications[0] as string;
    await mock.control.idle();
    // Runs the attempt due now (the clock moves by 0 seconds) and waits for it.
    await mock.control.tenant('persist-b').clock.advance(0);
    const first = await call(mock.url, token, 'GET', `/v1/notifications/webhook/${id}`);
    expect(first.body).toMatchObject({ status: 'Pending', attemptCount: 1 });
    expect(first.body.nextAttemptAt).not.toBeNull();
    await mock.close();

    mock = await startMock(options);
    expect(mock.restored?.pendingNotifications).toBe(1);
    await call(mock.url, token, 'POST', '/__mock/clock', { advanceSeconds: 200 });
    const done = await call(mock.url, token, 'GET', `/v1/notifications/webhook/${id}`);
    expect(done.body).toMatchObject({ status: 'Failure', attemptCount: 3, nextAttemptAt: null });
    await mock.close();
  });

  it('refuses a corrupt state file with a clear error instead of starting empty', async () => {
    const file = join(dir, 'corrupt.json');
    const token = await mintToken(DEFAULT_JWT_SECRET, adminClaims('persist-c'));
    const mock = await startMock({ port: 0, rateLimit: null, stateFile: file });
    await call(mock.url, token, 'POST', '/v1/access/apiKeys', { name: 'one' });
    // The key's write is already durable: a write is synced before its response is sent (http/app.ts onSend).
    // The journal is copied as written (the mock still holds its own file's lock), then corrupted in the copy.
    const copy = join(dir, 'corrupt-copy.json');
    const journal = readFileSync(`${file}.journal`, 'utf8').split('\n');
    await mock.close();
    journal.splice(1, 0, '00000000 {"t":"change","org":"x"}');
    writeFileSync(`${copy}.journal`, journal.join('\n'));
    await expect(startMock({ port: 0, stateFile: copy })).rejects.toBeInstanceOf(StateFileError);
    writeFileSync(copy, '{not json');
    await expect(startMock({ port: 0, stateFile: copy })).rejects.toThrow(/not valid JSON/);
  });

  it('drops a torn last line (an unacknowledged write) and starts with everything before it', async () => {
    const file = join(dir, 'torn.json');
    const token = await mintToken(DEFAULT_JWT_SECRET, adminClaims('persist-d'));
    let mock = await startMock({ port: 0, rateLimit: null, stateFile: file });
    const key = await call(mock.url, token, 'POST', '/v1/access/apiKeys', { name: 'kept' });
    await mock.close();
    appendFileSync(`${file}.journal`, '1234abcd {"t":"chan');
    mock = await startMock({ port: 0, rateLimit: null, stateFile: file });
    expect(mock.restored?.tornTail).toBe(true);
    const res = await request(`${mock.url}/v1/items/skus?pageSize=1`, { headers: { 'x-api-key': key.body.key } });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
    await mock.close();
  });

  it('refuses a state file written with another seed or catalog size', async () => {
    const file = join(dir, 'settings.json');
    const mock = await startMock({ port: 0, stateFile: file, seed: 1 });
    await mock.close();
    await expect(startMock({ port: 0, stateFile: file, seed: 2 })).rejects.toThrow(/--seed 1/);
  });

  it('loses no acknowledged write when the process is killed with SIGKILL during traffic', async () => {
    const file = join(dir, 'killed.json');
    const org = 'persist-kill';
    const token = await mintToken(DEFAULT_JWT_SECRET, adminClaims(org));
    const args = opsapiNodeArgs(['mock', '--port', '0', '--rate-limit', 'off', '--quiet', '--state', file]);
    let { process: proc, url: base } = await startListening(process.execPath, args, { cwd: root, timeoutMs: 30_000 });
    const m = (await call(base, token, 'GET', '/__mock/fixtures')).body;
    const acknowledged: string[] = [];
    let lastStock = 0;
    let stop = false;
    const writers = [
      (async () => {
        for (let i = 1; i <= 2000 && !stop; i++) {
          try {
            const r = await call(base, token, 'PUT', `/v1/items/skus/${m.sku.reference}/stock`, {
              locationReference: m.sku.locationReference,
              stock: i,
            });
            if (r.status === 204) lastStock = i;
          } catch {
            return;
          }
        }
      })(),
      (async () => {
        for (let i = 1; i <= 2000 && !stop; i++) {
          try {
            const r = await call(base, token, 'POST', '/v1/access/apiKeys', { name: `k${i}` });
            if (r.status === 201) acknowledged.push(r.body.key as string);
          } catch {
            return;
          }
        }
      })(),
    ];
    // Killed in the middle of the traffic: once both writers have 100 acknowledged writes (polled, at most 1.5 s).
    for (const until = Date.now() + 1500; (acknowledged.length < 100 || lastStock < 100) && Date.now() < until; )
      await new Promise((resolve) => setTimeout(resolve, 10));
    proc.child.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThan(5);
    expect(lastStock).toBeGreaterThan(5);

    ({ process: proc, url: base } = await startListening(process.execPath, args, { cwd: root, timeoutMs: 30_000 }));
    try {
      // The last acknowledged stock level, or the one write after it that was durable but never acknowledged.
      const sku = (
        await call(
          base,
          token,
          'GET',
          `/v1/items/skus?filterBy=${encodeURIComponent(`reference[Equals]${m.sku.reference}`)}`,
        )
      ).body.results[0];
      expect(sku).toBeDefined();
      for (const key of acknowledged) {
        const res = await request(`${base}/v1/items/skus?pageSize=1`, { headers: { 'x-api-key': key } });
        expect(res.statusCode, `acknowledged key ${acknowledged.indexOf(key)} lost`).toBe(200);
        await res.body.dump();
      }
      const restoredLevel = await levelAt(base, token, m.sku.reference, m.sku.locationReference);
      expect([lastStock, lastStock + 1]).toContain(restoredLevel);
    } finally {
      await proc.stop();
    }
  }, 60_000);
});

/**
 * The stock level of one (location, no lot) entry: the API shows only totals, so the entry is set to 0 and the
 * drop of the total is its level.
 */
async function levelAt(base: string, token: string, reference: string, location: string): Promise<number> {
  const before = await stockOf(base, token, reference);
  const res = await call(base, token, 'PUT', `/v1/items/skus/${reference}/stock`, {
    locationReference: location,
    stock: 0,
  });
  expect(res.status).toBe(204);
  const after = await stockOf(base, token, reference);
  return Math.round((before - after) * 1000) / 1000;
}
