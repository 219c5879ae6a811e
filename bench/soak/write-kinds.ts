import { pick, type KindDef } from './kind-def.js';

/** The write kinds: updates and create/delete cycles that must succeed. */
export const WRITE_KINDS: Record<string, KindDef> = {
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
};
