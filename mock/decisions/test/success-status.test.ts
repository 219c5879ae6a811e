import { describe, expect, it } from 'vitest';
import { sideBySide } from './side-by-side.js';

const SUBSCRIPTIONS = '/v1/notifications/webhook/subscriptions';

/** A subscription to a known event, for a fresh endpoint. */
function subscription(n: number) {
  return { endpoint: `https://receiver.example/${n}`, eventName: 'Items.Sku.Created', eventVersion: 1 };
}

describe('success-status decisions (the success status the reference does not give)', () => {
  const mocks = sideBySide({
    'success-status:createWebhookSubscription': 200,
    'success-status:deleteWebhookSubscription': 200,
  });

  it('without decisions, creates a subscription with the inferred 201 and deletes it with 204', async () => {
    const created = await mocks.inferred.call('POST', SUBSCRIPTIONS, {
      body: subscription(1),
      op: 'createWebhookSubscription',
    });
    expect(created.status).toBe(201);
    const deleted = await mocks.inferred.call('DELETE', `${SUBSCRIPTIONS}/${created.body.id}`);
    expect(deleted.status).toBe(204);
  });

  it('with the decisions, creates it with the observed 200 and the very same fields', async () => {
    const before = await mocks.inferred.call('POST', SUBSCRIPTIONS, { body: subscription(2) });
    const created = await mocks.observed.call('POST', SUBSCRIPTIONS, { body: subscription(2) });
    expect(created.status).toBe(200);
    expect(created.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(created.body).sort()).toEqual(Object.keys(before.body).sort());
    expect(created.body).toMatchObject(subscription(2));
  });

  it('with the decisions, deletes it with the observed 200 and no body', async () => {
    const created = await mocks.observed.call('POST', SUBSCRIPTIONS, { body: subscription(3) });
    const deleted = await mocks.observed.call('DELETE', `${SUBSCRIPTIONS}/${created.body.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.text).toBe('');
    expect((await mocks.observed.call('DELETE', `${SUBSCRIPTIONS}/${created.body.id}`)).status).toBe(404);
  });

  it('leaves the problems of the operation alone', async () => {
    const reply = await mocks.observed.call('POST', SUBSCRIPTIONS, {
      body: { ...subscription(4), eventName: 'Items.Sku.Teleported' },
    });
    expect(reply.status).toBe(400);
  });
});
