import { describe, expect, it } from 'vitest';
import { startHarness } from '../../test/harness.js';
import { startReceiver } from '../../../common/receiver.js';
import { attempts, emit, notification, subscribe, tenant } from './support.js';

const EVENT = 'Warehouse.Shipment.Shipped';

describe('the SSRF guard (--block-private-endpoints)', () => {
  it('records BlockedEndpoint for a loopback IP and for a name resolving to loopback, and sends nothing', async () => {
    const h = await startHarness({ blockPrivateEndpoints: true, deliveryTimeoutMs: 1000, retrySchedule: [0] });
    const r = await startReceiver();
    try {
      const t = await tenant(h);
      await subscribe(t, `${r.url}/hook`, EVENT);
      await subscribe(t, `http://localhost:${r.port}/hook`, EVENT);
      await subscribe(t, `http://[::1]:${r.port}/hook`, EVENT);
      const { notifications } = await emit(t, EVENT);
      expect(notifications).toHaveLength(3);
      await h.mock.control.idle();
      for (const id of notifications) {
        expect(await notification(t, id)).toMatchObject({ status: 'Failure', attemptCount: 1 });
        expect((await attempts(t, id))[0]).toMatchObject({
          errorKind: 'BlockedEndpoint',
          responseStatus: null,
          success: false,
        });
      }
      expect(r.received).toHaveLength(0);
    } finally {
      await h.close();
      await r.close();
    }
  });
});
