import { pick, type KindDef } from './kind-def.js';

/** The webhook kinds: emitted events and retried notifications. */
export const WEBHOOK_KINDS: Record<string, KindDef> = {
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
