import { Pool } from 'undici';
import { adminClaims } from '../../index.js';
import type { SoakReceiver } from './receiver.js';
import { emptyTally, record, type KindTally } from './stats.js';

/** Every soak request gives up after this long (a timeout is an unexpected error, never a hang). */
export const REQUEST_TIMEOUT_MS = 10_000;

/** The groups request kinds belong to. */
export type Group = 'read' | 'write' | 'bad' | 'webhook';

/** What one tenant of the soak holds: its token, fixtures and a few ids to address. */
export interface SoakTenant {
  readonly org: string;
  readonly token: string;
  readonly manifest: {
    sku: { reference: string; inspectionIds: string[]; locationReference: string; lotId: string };
    purchaseOrderLine: { purchaseOrderId: string; lineId: string };
  };
  readonly notificationIds: string[];
  readonly eventVersions: Map<string, number>;
}

interface Send {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  path: string;
  token?: string | null;
  apiKey?: string;
  body?: unknown;
  raw?: string;
}

interface Answer {
  status: number | null;
  body: any;
}

/** Sends requests over a keep-alive pool and tallies them per kind against the statuses expected for the kind. */
export class Traffic {
  readonly tallies = new Map<string, KindTally>();
  readonly groups = new Map<string, Group>();
  private readonly pool: Pool;

  constructor(
    readonly url: string,
    connections: number,
  ) {
    this.pool = new Pool(url, {
      connections,
      keepAliveTimeout: 30_000,
      headersTimeout: REQUEST_TIMEOUT_MS,
      bodyTimeout: REQUEST_TIMEOUT_MS,
    });
  }

  /** One request of a kind; `expected` lists the statuses that kind may get. Never throws. */
  async send(kind: string, group: Group, expected: readonly number[], req: Send): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (req.token) headers.authorization = `Bearer ${req.token}`;
    if (req.apiKey) headers['x-api-key'] = req.apiKey;
    const body = req.raw ?? (req.body !== undefined ? JSON.stringify(req.body) : undefined);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const started = performance.now();
    let status: number | null = null;
    let parsed: any;
    let text = '';
    try {
      const res = await this.pool.request({
        path: req.path,
        method: req.method,
        headers,
        ...(body !== undefined ? { body } : {}),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      text = await res.body.text();
      status = res.statusCode;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
    } catch (error) {
      text = `${(error as Error).name}: ${(error as Error).message}`;
    }
    let tally = this.tallies.get(kind);
    if (!tally) {
      tally = emptyTally();
      this.tallies.set(kind, tally);
      this.groups.set(kind, group);
    }
    record(
      tally,
      status,
      expected,
      performance.now() - started,
      () => `${req.method} ${req.path.slice(0, 120)} -> ${status ?? 'no answer'} ${text.slice(0, 200)}`,
    );
    return { status, body: parsed };
  }

  /** A setup request that must succeed with `status`; throws otherwise. */
  async must(status: number, req: Send): Promise<any> {
    const answer = await this.send('setup', 'read', [status], req);
    if (answer.status !== status)
      throw new Error(
        `setup ${req.method} ${req.path}: expected ${status}, got ${answer.status ?? 'no answer'} ${JSON.stringify(answer.body ?? null).slice(0, 300)}`,
      );
    return answer.body;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** Events the soak subscribes to: the writes it makes emit them. */
const SUBSCRIBED = ['Warehouse.Stock.Updated', 'Items.Sku.InspectionUpdated', 'Planning.PurchaseOrder.LineUpdated'];

/** Creates a tenant: token, fixtures, webhook secret (told to the receiver), subscriptions to the receiver, a notification. */
export async function setUpTenant(traffic: Traffic, receiver: SoakReceiver, org: string): Promise<SoakTenant> {
  const claims = adminClaims(org);
  const { token } = (await traffic.must(201, {
    method: 'POST',
    path: '/__mock/tokens',
    body: { org, permissions: claims.permissions, roles: claims.roles, expiresIn: 86_400 },
  })) as { token: string };
  const manifest = (await traffic.must(200, {
    method: 'GET',
    path: '/__mock/fixtures',
    token,
  })) as SoakTenant['manifest'];
  const { secret } = (await traffic.must(200, { method: 'GET', path: '/__mock/webhook-secret', token })) as {
    secret: string;
  };
  receiver.secrets.set(org, secret);
  const versions = (await traffic.must(200, { method: 'GET', path: '/v1/notifications/events/versions', token })) as {
    eventName: string;
    eventVersion: number;
  }[];
  const eventVersions = new Map<string, number>();
  for (const v of versions)
    eventVersions.set(v.eventName, Math.max(eventVersions.get(v.eventName) ?? 0, v.eventVersion));
  for (const eventName of SUBSCRIBED) {
    await traffic.must(201, {
      method: 'POST',
      path: '/v1/notifications/webhook/subscriptions',
      token,
      body: {
        endpoint: `${receiver.url}/${encodeURIComponent(org)}`,
        eventName,
        eventVersion: eventVersions.get(eventName) ?? 1,
      },
    });
  }
  const emitted = (await traffic.must(202, {
    method: 'POST',
    path: '/__mock/events',
    token,
    body: { eventName: 'Warehouse.Stock.Updated' },
  })) as { notifications: string[] };
  return { org, token, manifest, notificationIds: [...emitted.notifications], eventVersions };
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const enc = encodeURIComponent;

const SKU_FILTERS = [
  'status[Equals]Active',
  'name[Contains]a',
  'totalStock[Gt]10',
  'createdAt[IsAfter]2025-01-01',
  'familyId[IsNull]',
  '(status[Equals]Active && totalStock[Lte]100) || name[StartsWith]b',
  'isStockControlled[Equals]true',
];
const SKU_SORTS = ['name', '-totalStock', 'createdAt,-name', '-lastModifiedAt', 'reference'];
const ASSET_FILTERS = [
  'kind[Equals]Equipment',
  'status[Equals]Operational',
  'hoursInService[Gte]100',
  'parentId[IsNotNull]',
  'name[Contains]e',
];
const FAMILY_FILTERS = ['skuCount[Gt]0', 'name[Contains]a', 'description[IsNull]', 'createdAt[IsBefore]2026-01-01'];
const ERROR_CODES = [
  'COMMON.ENTITY.NOT_FOUND',
  'COMMON.VALIDATION.ERROR',
  'COMMON.QUERY.FILTER_PARSING_FAILED',
  'COMMON.RATE_LIMIT.EXCEEDED',
  'ITEMS.FAMILY.ALREADY_DELETED',
];

/** One kind of traffic: a weight and what it sends (one or more requests). */
interface KindDef {
  readonly weight: number;
  run(traffic: Traffic, t: SoakTenant): Promise<void>;
}

/** The mix: reads about half, writes a quarter, bad requests and webhook traffic the rest. */
export const KINDS: Record<string, KindDef> = {
  'list-skus': {
    weight: 10,
    run: (tr, t) =>
      tr
        .send('list-skus', 'read', [200], {
          method: 'GET',
          path: `/v1/items/skus?pageSize=${pick([5, 25, 100])}&filterBy=${enc(pick(SKU_FILTERS))}&sortBy=${enc(pick(SKU_SORTS))}`,
          token: t.token,
        })
        .then(() => undefined),
  },
  'list-assets': {
    weight: 4,
    run: (tr, t) =>
      tr
        .send('list-assets', 'read', [200], {
          method: 'GET',
          path: `/v1/maintenance/assets?filterBy=${enc(pick(ASSET_FILTERS))}&sortBy=-hoursInService`,
          token: t.token,
        })
        .then(() => undefined),
  },
  'search-families': {
    weight: 4,
    run: (tr, t) =>
      tr
        .send('search-families', 'read', [200], {
          method: 'POST',
          path: '/v1/items/families/search',
          token: t.token,
          body: { pageSize: 50, filterBy: pick(FAMILY_FILTERS), sortBy: '-skuCount' },
        })
        .then(() => undefined),
  },
  'list-events': {
    weight: 3,
    run: (tr, t) =>
      tr
        .send('list-events', 'read', [200], {
          method: 'GET',
          path: `/v1/notifications/events?filterBy=${enc(pick(['family[Equals]Warehouse', 'isDeprecated[Equals]false', 'eventName[StartsWith]Items']))}`,
          token: t.token,
        })
        .then(() => undefined),
  },
  'event-versions': {
    weight: 2,
    run: (tr, t) =>
      tr
        .send('event-versions', 'read', [200], {
          method: 'GET',
          path: '/v1/notifications/events/versions',
          token: t.token,
        })
        .then(() => undefined),
  },
  'error-catalog': {
    weight: 3,
    run: (tr, t) =>
      tr
        .send('error-catalog', 'read', [200], {
          method: 'GET',
          path: `/v1/errors/${pick(ERROR_CODES)}`,
          token: t.token,
        })
        .then(() => undefined),
  },
  'tenant-self': {
    weight: 3,
    run: (tr, t) =>
      tr
        .send('tenant-self', 'read', [200], { method: 'GET', path: '/v1/admin/tenants/self', token: t.token })
        .then(() => undefined),
  },
  'list-notifications': {
    weight: 4,
    run: (tr, t) =>
      tr
        .send('list-notifications', 'read', [200], {
          method: 'GET',
          path: `/v1/notifications/webhook?filterBy=${enc(pick(['status[Equals]Success', 'eventName[Equals]Warehouse.Stock.Updated', 'attemptCount[Gte]1']))}&sortBy=-createdAt`,
          token: t.token,
        })
        .then(() => undefined),
  },
  'get-notification': {
    weight: 3,
    run: (tr, t) =>
      tr
        .send('get-notification', 'read', [200], {
          method: 'GET',
          path: `/v1/notifications/webhook/${pick(t.notificationIds)}`,
          token: t.token,
        })
        .then(() => undefined),
  },
  'list-attempts': {
    weight: 3,
    run: (tr, t) =>
      tr
        .send('list-attempts', 'read', [200], {
          method: 'GET',
          path: `/v1/notifications/webhook/${pick(t.notificationIds)}/attempts?sortBy=-number`,
          token: t.token,
        })
        .then(() => undefined),
  },
  'list-subscriptions': {
    weight: 3,
    run: (tr, t) =>
      tr
        .send('list-subscriptions', 'read', [200], {
          method: 'GET',
          path: '/v1/notifications/webhook/subscriptions?sortBy=createdAt',
          token: t.token,
        })
        .then(() => undefined),
  },

  'update-stock': {
    weight: 8,
    run: (tr, t) =>
      tr
        .send('update-stock', 'write', [204], {
          method: 'PUT',
          path: `/v1/items/skus/${t.manifest.sku.reference}/stock`,
          token: t.token,
          body: {
            locationReference: t.manifest.sku.locationReference,
            lotId: t.manifest.sku.lotId,
            stock: Math.floor(Math.random() * 1000),
            comment: 'soak',
          },
        })
        .then(() => undefined),
  },
  'update-inspection': {
    weight: 5,
    run: (tr, t) =>
      tr
        .send('update-inspection', 'write', [200], {
          method: 'PUT',
          path: `/v1/items/skus/${t.manifest.sku.reference}/inspections/${pick(t.manifest.sku.inspectionIds)}`,
          token: t.token,
          body: { name: `Soak check ${Math.floor(Math.random() * 100)}`, isMandatory: Math.random() < 0.5 },
        })
        .then(() => undefined),
  },
  'update-po-line': {
    weight: 5,
    run: (tr, t) =>
      tr
        .send('update-po-line', 'write', [200], {
          method: 'PUT',
          path: `/v1/planning/purchaseOrders/${t.manifest.purchaseOrderLine.purchaseOrderId}/lines/${t.manifest.purchaseOrderLine.lineId}`,
          token: t.token,
          body: { quantity: 1 + Math.floor(Math.random() * 500), comment: 'soak' },
        })
        .then(() => undefined),
  },
  'subscription-cycle': {
    weight: 3,
    run: async (tr, t) => {
      const created = await tr.send('create-subscription', 'write', [201], {
        method: 'POST',
        path: '/v1/notifications/webhook/subscriptions',
        token: t.token,
        body: {
          endpoint: `http://127.0.0.1:1/${t.org}`,
          eventName: 'Maintenance.WorkOrder.Created',
          eventVersion: t.eventVersions.get('Maintenance.WorkOrder.Created') ?? 1,
        },
      });
      const id = (created.body as { id?: string } | undefined)?.id;
      if (id)
        await tr.send('delete-subscription', 'write', [204], {
          method: 'DELETE',
          path: `/v1/notifications/webhook/subscriptions/${id}`,
          token: t.token,
        });
    },
  },
  'api-key-cycle': {
    weight: 2,
    run: async (tr, t) => {
      const created = await tr.send('create-api-key', 'write', [201], {
        method: 'POST',
        path: '/v1/access/apiKeys',
        token: t.token,
        body: { name: 'soak key' },
      });
      const key = created.body as { id?: string; key?: string } | undefined;
      if (!key?.id || !key.key) return;
      await tr.send('use-api-key', 'read', [200], {
        method: 'GET',
        path: '/v1/items/skus?pageSize=5',
        apiKey: key.key,
      });
      await tr.send('revoke-api-key', 'write', [204], {
        method: 'DELETE',
        path: `/__mock/api-keys/${key.id}`,
        token: t.token,
      });
      await tr.send('use-revoked-key', 'bad', [401], {
        method: 'GET',
        path: '/v1/items/skus?pageSize=5',
        apiKey: key.key,
      });
    },
  },

  'bad-json': {
    weight: 3,
    run: (tr, t) =>
      tr
        .send('bad-json', 'bad', [400], {
          method: 'PUT',
          path: `/v1/items/skus/${t.manifest.sku.reference}/stock`,
          token: t.token,
          raw: pick(['{broken', '{"stock":"many"}', '[]', '{"locationReference":"x","stock":-1}']),
        })
        .then(() => undefined),
  },
  'bad-filter': {
    weight: 3,
    run: (tr, t) =>
      tr
        .send('bad-filter', 'bad', [400], {
          method: 'GET',
          path: `/v1/items/skus?filterBy=${enc(pick(['name[Nope]x', 'nothing[Equals]1', '(name[Equals]a', 'totalStock[Gt]abc', 'name[Equals]a &&']))}`,
          token: t.token,
        })
        .then(() => undefined),
  },
  'bad-sort': {
    weight: 1,
    run: (tr, t) =>
      tr
        .send('bad-sort', 'bad', [400], {
          method: 'GET',
          path: `/v1/maintenance/assets?sortBy=${enc(pick(['unknown', 'name,,', '--name']))}`,
          token: t.token,
        })
        .then(() => undefined),
  },
  'bad-page': {
    weight: 1,
    run: (tr, t) =>
      tr
        .send('bad-page', 'bad', [400], {
          method: 'GET',
          path: `/v1/items/skus?pageSize=${pick(['0', '1001', '-1', 'abc', '1.5'])}`,
          token: t.token,
        })
        .then(() => undefined),
  },
  'unknown-route': {
    weight: 2,
    run: (tr, t) =>
      tr
        .send('unknown-route', 'bad', [404], {
          method: 'GET',
          path: pick(['/v1/nothing', '/v1/items/skus/', '/v2/items/skus', '/favicon.ico']),
          token: t.token,
        })
        .then(() => undefined),
  },
  'wrong-method': {
    weight: 1,
    run: (tr, t) =>
      tr
        .send('wrong-method', 'bad', [405], { method: 'PATCH', path: '/v1/items/skus', token: t.token })
        .then(() => undefined),
  },
  'missing-token': {
    weight: 2,
    run: (tr) =>
      tr.send('missing-token', 'bad', [401], { method: 'GET', path: '/v1/items/skus' }).then(() => undefined),
  },
  'forged-token': {
    weight: 2,
    run: (tr, t) =>
      tr
        .send('forged-token', 'bad', [401], {
          method: 'GET',
          path: '/v1/items/skus',
          token: `${t.token.slice(0, -4)}AAAA`,
        })
        .then(() => undefined),
  },
  'unknown-id': {
    weight: 1,
    run: (tr, t) =>
      tr
        .send('unknown-id', 'bad', [404], {
          method: 'GET',
          path: '/v1/notifications/webhook/ntf_nope_000001',
          token: t.token,
        })
        .then(() => undefined),
  },

  'emit-event': {
    weight: 4,
    run: async (tr, t) => {
      const answer = await tr.send('emit-event', 'webhook', [202], {
        method: 'POST',
        path: '/__mock/events',
        token: t.token,
        body: {
          eventName: pick([
            'Warehouse.Stock.Updated',
            'Items.Sku.InspectionUpdated',
            'Planning.PurchaseOrder.LineUpdated',
          ]),
        },
      });
      const ids = (answer.body as { notifications?: string[] } | undefined)?.notifications ?? [];
      // Keep a bounded set of ids to read and retry.
      // The most recent ids: old notifications may be forgotten by the history bound (--max-notifications).
      for (const id of ids) {
        t.notificationIds.push(id);
        if (t.notificationIds.length > 200) t.notificationIds.shift();
      }
    },
  },
  'retry-notification': {
    weight: 1,
    run: (tr, t) =>
      tr
        .send('retry-notification', 'webhook', [202], {
          method: 'POST',
          path: `/v1/notifications/webhook/${pick(t.notificationIds)}/retry`,
          token: t.token,
        })
        .then(() => undefined),
  },
};

const TOTAL_WEIGHT = Object.values(KINDS).reduce((s, k) => s + k.weight, 0);

/** A kind drawn by weight. */
export function drawKind(): KindDef {
  let r = Math.random() * TOTAL_WEIGHT;
  for (const kind of Object.values(KINDS)) {
    r -= kind.weight;
    if (r < 0) return kind;
  }
  return Object.values(KINDS)[0]!;
}

/** Runs `workers` loops of random kinds over the tenants until `until()` says stop. */
export async function runWorkers(
  traffic: Traffic,
  tenants: readonly SoakTenant[],
  workers: number,
  until: () => boolean,
): Promise<void> {
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (!until()) await drawKind().run(traffic, pick(tenants));
    }),
  );
}
