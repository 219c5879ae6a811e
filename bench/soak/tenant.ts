import { adminClaims } from '../../index.js';
import type { SoakReceiver } from './receiver.js';
import type { Traffic } from './sender.js';

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
