import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, verifySignature } from 'opsapi/receiver';
import { startMock, type TestMock } from 'opsapi/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';

let mock: TestMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock.close());

interface Page<T> {
  results: T[];
  pageNumber: number;
  totalPages: number;
}

/** Stands in for your API client: plain fetch, keeping the reference's rules for requests, lists and 429s. */
function apiClient(baseUrl: string, token: string, apiKey: string) {
  /** A request with `Authorization: Bearer`, a body as JSON; a 429 is sent again once its Retry-After has passed. */
  async function send<T>(method: string, path: string, body?: unknown, headers = {}): Promise<T> {
    const init: RequestInit = { method, headers: { ...headers, authorization: `Bearer ${token}` } };
    if (body !== undefined) {
      init.headers = { ...init.headers, 'content-type': 'application/json' };
      init.body = JSON.stringify(body);
    }
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${baseUrl}${path}`, init);
      const text = await res.text();
      if (res.status === 429 && attempt < 5) {
        const seconds = Number(res.headers.get('retry-after') ?? 1);
        await new Promise((resolve) => setTimeout(resolve, (Number.isFinite(seconds) ? seconds : 1) * 1000));
        continue;
      }
      if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    }
  }
  /** Every item of a list: pages while pageNumber < totalPages, the filter percent-encoded (`&&` as %26%26). */
  async function walk<T>(path: string, filterBy: string, pageSize = 100): Promise<T[]> {
    const items: T[] = [];
    for (let n = 1; ; n++) {
      const query = `pageNumber=${n}&pageSize=${pageSize}&filterBy=${encodeURIComponent(filterBy)}`;
      const page = await send<Page<T>>('GET', `${path}?${query}`, undefined, { 'x-api-key': apiKey });
      items.push(...page.results);
      if (page.pageNumber >= page.totalPages) return items;
    }
  }
  return { send, walk };
}

interface Notification {
  data: { skuReference?: string };
}

/**
 * Stands in for your webhook receiver (node:http): it verifies X-HMAC-Signature over the raw body as received and
 * refuses a bad one, answers 2xx at once, drops an event it has seen, and processes the others in the background.
 */
async function startReceiver(secret: string, onEvent: (event: Notification) => Promise<void>) {
  const seen = new Set<string>();
  const failures: unknown[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks); // the signed bytes: never JSON parsed and serialised again
    if (!verifySignature(raw, req.headers[SIGNATURE_HEADER.toLowerCase()], secret)) {
      res.writeHead(401).end();
      return;
    }
    res.writeHead(204).end();
    const eventId = String(req.headers[EVENT_ID_HEADER.toLowerCase()]);
    if (seen.has(eventId)) return;
    seen.add(eventId);
    onEvent(JSON.parse(raw.toString('utf8'))).catch((error: unknown) => failures.push(error));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    failures,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const STOCK_EVENT = 'Warehouse.Stock.Updated';

it('keeps the rules of the reference for clients and webhook receivers', async () => {
  const t = mock.tenant();
  // Short windows settle the run in seconds. A fixed seed puts the injected 429 on the same request every run (a
  // drawn one may inject none into a run this short, leaving the MUST check client.retry-after-wait unexercised).
  const cc = await t.clientChecks.start({ profile: 'certify', seed: 42, retryAfterSeconds: 1, readWithinMs: 1000 });
  const api = apiClient(mock.url, await t.token(), await t.apiKey());
  // A notification may only announce a change: the receiver reads the current state of the SKU it names.
  const receiver = await startReceiver(t.webhooks.secret(), async (event) => {
    if (event.data.skuReference) await api.walk('/v1/items/skus', `reference[Equals]${event.data.skuReference}`);
  });
  try {
    const skus = await api.walk('/v1/items/skus', 'status[Equals]Active && totalStock[Gte]0');
    expect(skus.length).toBeGreaterThan(100); // several pages of 100

    // The event's versions are read from the environment before subscribing, never assumed.
    const offered = await api.send<{ eventName: string; eventVersion: number }[]>(
      'GET',
      '/v1/notifications/events/versions',
    );
    const eventVersion = Math.max(...offered.filter((e) => e.eventName === STOCK_EVENT).map((e) => e.eventVersion));
    const subscription = { endpoint: receiver.url, eventName: STOCK_EVENT, eventVersion };
    await api.send('POST', '/v1/notifications/webhook/subscriptions', subscription);

    const { reference, locationReference } = t.fixtures().sku;
    await api.send('PUT', `/v1/items/skus/${encodeURIComponent(reference)}/stock`, { locationReference, stock: 40 });

    // Waits until nothing is pending, then throws listing each MUST failure with its evidence;
    // certify: also a MUST check the traffic did not exercise (strict: true would add SHOULD failures).
    await cc.assertPassed({ certify: true });
    expect(receiver.failures).toEqual([]);
  } finally {
    await cc.stop(); // the final report
    await receiver.close();
  }
});
