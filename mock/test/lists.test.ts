import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, type OperationDef } from '../../spec/operations/index.js';
import { adminClaims } from '../auth/presets.js';
import { expectProblem, freshOrg, injectHarness, type InjectHarness, type Reply } from './harness.js';
import { expectOrdered, idOf, type Item, type Params } from './list-items.js';

const LIST_OPS = OPERATIONS.filter(
  (op): op is OperationDef & { list: NonNullable<OperationDef['list']> } => op.list !== undefined,
);

describe('lists', () => {
  let h: InjectHarness;
  let token: string;
  let receiver: Server;
  const paths = new Map<string, string>();

  /** Calls a list operation with list parameters in the query or the body, as the operation takes them. */
  function list(operationId: string, params: Params = {}): Promise<Reply> {
    const op = LIST_OPS.find((o) => o.operationId === operationId)!;
    const path = paths.get(operationId)!;
    if (op.list.parametersIn === 'body') return h.call('POST', path, { token, body: params, op: operationId });
    const query = new URLSearchParams(
      Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    return h.call('GET', query ? `${path}?${query}` : path, { token, op: operationId });
  }

  async function all(operationId: string, params: Params = {}): Promise<{ items: Item[]; totalCount: number }> {
    const reply = await list(operationId, { pageSize: 1000, ...params });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.results).toHaveLength(reply.body.totalCount);
    return { items: reply.body.results, totalCount: reply.body.totalCount };
  }

  const unsorted = new Map<string, Promise<{ items: Item[]; totalCount: number }>>();
  /** The default-ordered full list of an operation, read once (the state does not change after the setup). */
  function unsortedOf(operationId: string): Promise<{ items: Item[]; totalCount: number }> {
    let found = unsorted.get(operationId);
    if (!found) {
      found = all(operationId);
      unsorted.set(operationId, found);
    }
    return found;
  }

  beforeAll(async () => {
    h = await injectHarness();
    token = await h.token(adminClaims(freshOrg('lists')));
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

    // Subscriptions, notifications and attempts to list: 7 subscriptions, 10 notifications, 4 attempts of one.
    const subs: [string, number][] = [
      ['Items.Sku.Created', 1],
      ['Items.Sku.Created', 2],
      ['Warehouse.Shipment.Shipped', 1],
      ['Warehouse.Receipt.Received', 1],
      ['Production.Order.Finished', 1],
      ['Maintenance.WorkOrder.Completed', 1],
      ['Planning.SalesOrder.LineConfirmed', 1],
    ];
    for (const [i, [eventName, eventVersion]] of subs.entries()) {
      const reply = await h.call('POST', '/v1/notifications/webhook/subscriptions', {
        token,
        body: { endpoint: `${endpoint}/hook-${i}`, eventName, eventVersion },
        op: 'createWebhookSubscription',
      });
      expect(reply.status).toBe(201);
    }
    const emitted: string[] = [];
    for (const eventName of [
      'Items.Sku.Created',
      'Items.Sku.Created',
      'Warehouse.Shipment.Shipped',
      'Warehouse.Receipt.Received',
      'Items.Sku.Created',
      'Production.Order.Finished',
      'Maintenance.WorkOrder.Completed',
    ]) {
      await h.call('POST', '/__mock/clock', { token, body: { advanceSeconds: 61 } });
      const reply = await h.call('POST', '/__mock/events', { token, body: { eventName } });
      expect(reply.status).toBe(202);
      emitted.push(...(reply.body.notifications as string[]));
    }
    await h.mock.control.idle();
    const retried = emitted[0]!;
    for (let i = 0; i < 3; i++) {
      expect(
        (await h.call('POST', `/v1/notifications/webhook/${retried}/retry`, { token, op: 'retryWebhookNotification' }))
          .status,
      ).toBe(202);
      await h.mock.control.idle();
    }
    for (const op of LIST_OPS) paths.set(op.operationId, op.path.replace('{id}', retried));
  });

  afterAll(async () => {
    await h?.close();
    await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  });

  it('covers every list operation of the contract', () => {
    expect(LIST_OPS.map((op) => op.operationId).sort()).toEqual(
      [
        'listAssets',
        'listEvents',
        'listSkus',
        'listWebhookNotificationAttempts',
        'listWebhookNotifications',
        'listWebhookSubscriptions',
        'searchFamilies',
      ].sort(),
    );
  });

  describe.each(LIST_OPS.map((op) => ({ operationId: op.operationId, op })))('$operationId', ({ operationId, op }) => {
    it('has items to list', async () => {
      const { totalCount } = await unsortedOf(operationId);
      expect(totalCount).toBeGreaterThanOrEqual(4);
    });

    it('defaults to page 1 of 25', async () => {
      const reply = await list(operationId);
      expect(reply.status).toBe(200);
      expect(reply.body.pageNumber).toBe(1);
      expect(reply.body.pageSize).toBe(25);
      expect(reply.body.results).toHaveLength(Math.min(25, reply.body.totalCount));
    });

    it.each([
      { pageNumber: 1, pageSize: 1 },
      { pageNumber: 1, pageSize: 1000 },
      { pageNumber: 2, pageSize: 1 },
    ])('accepts pageNumber $pageNumber and pageSize $pageSize', async (params) => {
      const reply = await list(operationId, params);
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject(params);
    });

    it.each(
      ['pageSize', 'pageNumber'].flatMap((field) =>
        ['0', '-1', 'abc', ...(field === 'pageSize' ? ['1001'] : [])].map((value) => ({ field, value })),
      ),
    )('rejects $field=$value with 400 COMMON.VALIDATION.ERROR naming the parameter', async ({ field, value }) => {
      const sent = op.list.parametersIn === 'body' && /^-?\d+$/.test(value) ? Number(value) : value;
      const reply = await list(operationId, { [field]: sent });
      expectProblem(reply, 400, 'COMMON.VALIDATION.ERROR');
      expect(reply.body.parameters.field).toBe(field);
      expect(reply.body.detail).toContain(field);
    });

    it('keeps the envelope arithmetic exact on every page size', async () => {
      const { totalCount } = await unsortedOf(operationId);
      for (const pageSize of [1, 7, 1000]) {
        const totalPages = Math.ceil(totalCount / pageSize);
        for (const pageNumber of [1, totalPages, totalPages + 1]) {
          if (pageNumber < 1) continue;
          const reply = await list(operationId, { pageSize, pageNumber });
          expect(reply.status).toBe(200);
          expect(reply.body).toMatchObject({ pageNumber, pageSize, totalCount, totalPages });
          expect(reply.body.results).toHaveLength(
            Math.max(0, Math.min(pageSize, totalCount - (pageNumber - 1) * pageSize)),
          );
        }
      }
    });

    it('yields totalCount distinct items when walking all pages', async () => {
      const { items, totalCount } = await unsortedOf(operationId);
      const pageSize = Math.max(1, Math.ceil(totalCount / 4));
      const seen: string[] = [];
      let pageNumber = 1;
      let totalPages = 1;
      do {
        const reply = await list(operationId, { pageSize, pageNumber });
        expect(reply.status).toBe(200);
        totalPages = reply.body.totalPages;
        seen.push(...reply.body.results.map(idOf));
        pageNumber += 1;
      } while (pageNumber <= totalPages && pageNumber <= 10);
      expect(seen).toHaveLength(totalCount);
      expect(new Set(seen).size).toBe(totalCount);
      expect(new Set(seen)).toEqual(new Set(items.map(idOf)));
      const beyond = await list(operationId, { pageSize, pageNumber: totalPages + 1 });
      expect(beyond.body.results).toEqual([]);
    });

    it.each(op.list.fields.filter((f) => f.sortable).map((field) => ({ name: field.name, field })))(
      'sorts by $name ascending and descending',
      async ({ field }) => {
        const { items: unsorted, totalCount } = await unsortedOf(operationId);
        const asc = await all(operationId, { sortBy: field.name });
        const desc = await all(operationId, { sortBy: `-${field.name}` });
        expect(asc.totalCount).toBe(totalCount);
        expect(desc.totalCount).toBe(totalCount);
        expectOrdered(asc.items, field, false);
        expectOrdered(desc.items, field, true);
        expect(new Set(asc.items.map(idOf))).toEqual(new Set(unsorted.map(idOf)));
      },
    );

    it('filters with Equals on a text field, with values taken from the data', async () => {
      const field = op.list.fields.find((f) => f.type === 'string' && f.filterable && !f.nullable)!;
      const { items } = await unsortedOf(operationId);
      const value = String(items[Math.floor(items.length / 2)]![field.name]);
      const reply = await all(operationId, { filterBy: `${field.name}[Equals]"${value.replace(/["\\]/g, '\\$&')}"` });
      expect(reply.totalCount).toBe(items.filter((i) => i[field.name] === value).length);
      expect(reply.totalCount).toBeGreaterThan(0);
      for (const item of reply.items) expect(item[field.name]).toBe(value);
    });

    it('answers an unknown filter column with 400 COMMON.QUERY.FILTER_PARSING_FAILED', async () => {
      const reply = await list(operationId, { filterBy: 'noSuchColumn[Equals]1' });
      expectProblem(reply, 400, 'COMMON.QUERY.FILTER_PARSING_FAILED');
    });

    it('answers an unknown sort field with 400 COMMON.QUERY.SORTING_PARSING_FAILED', async () => {
      const reply = await list(operationId, { sortBy: '-noSuchColumn' });
      expectProblem(reply, 400, 'COMMON.QUERY.SORTING_PARSING_FAILED');
    });
  });
});

describe('a large catalog (100,000 SKUs)', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness({ skus: 100_000 });
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  it('lists with exact totals, to the last page', async () => {
    const first = await h.call('GET', '/v1/items/skus', { op: 'listSkus' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ pageNumber: 1, pageSize: 25, totalCount: 100_000, totalPages: 4000 });
    const last = await h.call('GET', '/v1/items/skus?pageSize=1000&pageNumber=100', { op: 'listSkus' });
    expect(last.body.results).toHaveLength(1000);
    const beyond = await h.call('GET', '/v1/items/skus?pageSize=1000&pageNumber=101', { op: 'listSkus' });
    expect(beyond.body).toMatchObject({ results: [], totalCount: 100_000, totalPages: 100 });
  }, 30_000);

  it('filters and sorts with consistent totals', async () => {
    const probe = await h.call('GET', '/v1/items/skus?pageSize=1&pageNumber=50000', { op: 'listSkus' });
    const x = probe.body.results[0].totalStock as number;
    const count = async (filterBy: string, sortBy?: string) => {
      const q = new URLSearchParams({ filterBy, pageSize: '50', ...(sortBy ? { sortBy } : {}) });
      const reply = await h.call('GET', `/v1/items/skus?${q}`, { op: 'listSkus' });
      expect(reply.status).toBe(200);
      return reply;
    };
    const above = await count(`totalStock[Gt]${x}`, '-totalStock');
    const atMost = await count(`totalStock[Lte]${x}`);
    expect(above.body.totalCount + atMost.body.totalCount).toBe(100_000);
    expect(above.body.totalCount).toBeGreaterThan(0);
    const stocks = above.body.results.map((s: { totalStock: number }) => s.totalStock);
    for (const s of stocks) expect(s).toBeGreaterThan(x);
    expect([...stocks].sort((a, b) => b - a)).toEqual(stocks);
    const either = await count(`totalStock[Gt]${x} || totalStock[Lte]${x}`);
    expect(either.body.totalCount).toBe(100_000);
    const one = await count(`reference[Equals]${probe.body.results[0].reference}`);
    expect(one.body.totalCount).toBe(1);
    expect(one.body.results[0]).toEqual(probe.body.results[0]);
  }, 30_000);
});
