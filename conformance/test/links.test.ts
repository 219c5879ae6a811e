import { describe, expect, it } from 'vitest';
import type { Delivery } from '../../common/receiver.js';
import { type Candidate, linkDelivery, newestLink, sameNotification } from '../observe/links.js';

let index = 0;
function delivery(json: unknown, headers: Record<string, string> = {}): Delivery {
  const raw = Buffer.from(JSON.stringify(json));
  return {
    index: index++,
    at: Date.now(),
    method: 'POST',
    url: '/hooks',
    path: '/hooks',
    headers: { 'content-type': 'application/json', 'x-hmac-signature': 'ab'.repeat(32), ...headers },
    raw,
    truncated: false,
    signature: 'unchecked',
    remoteAddress: '127.0.0.1',
    json,
  };
}

const n = (id: string, record: Record<string, unknown> = {}): Candidate => ({ id, record: { id, ...record } });
const none = new Set<string>();

describe('linking a delivery to its stored notification by what both show', () => {
  it('links by the notification id carried in the body or a header, whatever the field is called', () => {
    const candidates = [n('ntf-1'), n('ntf-2')];
    expect(linkDelivery([delivery({ notification: 'ntf-2' })], candidates, none)?.notification.id).toBe('ntf-2');
    expect(linkDelivery([delivery({}, { 'x-delivery': 'ntf-1' })], candidates, none)?.notification.id).toBe('ntf-1');
  });

  it('links by a value the delivery and exactly one record share (an event id, a date)', () => {
    const candidates = [
      n('a', { eventRef: 'evt_111111', kind: 'Stock.Changed' }),
      n('b', { eventRef: 'evt_222222', kind: 'Stock.Changed' }),
    ];
    const link = linkDelivery([delivery({ eventId: 'evt_222222', event: 'Stock.Changed' })], candidates, none);
    expect(link?.notification.id).toBe('b');
    expect(link?.value).toBe('evt_222222');
  });

  it('prefers the records that name the receiver subscriptions, and never links on a shared value', () => {
    const shared = { event: 'Stock.Changed' };
    const candidates = [
      n('seed', { ...shared, subscriptionId: 'sub-9' }),
      n('ours', { ...shared, subscriptionId: 'sub-1' }),
    ];
    expect(linkDelivery([delivery(shared)], candidates, new Set(['sub-1']))?.notification.id).toBe('ours');
    expect(linkDelivery([delivery(shared)], candidates, none)).toBeUndefined();
  });

  it('falls back to a notification created since the receiver listened, Success first', () => {
    const candidates = [n('x', { status: 'Pending' }), n('y', { status: 'Success' })];
    expect(newestLink([delivery({})], candidates, none)?.notification.id).toBe('y');
    expect(newestLink([], candidates, none)).toBeUndefined();
  });

  it('knows a redelivery of the same notification', () => {
    const first = delivery({ eventId: 'evt_333333' });
    const link = linkDelivery([first], [n('c', { eventRef: 'evt_333333' })], none);
    expect(link).toBeDefined();
    if (!link) return;
    expect(sameNotification(link, delivery({ eventId: 'evt_333333', attempt: 2 }))).toBe(true);
    expect(sameNotification(link, delivery({ eventId: 'evt_444444' }))).toBe(false);
  });
});
