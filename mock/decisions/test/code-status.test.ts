import { describe, expect, it } from 'vitest';
import { sideBySide } from './side-by-side.js';
import { expectProblem } from '../../test/harness.js';

const SUBSCRIPTIONS = '/v1/notifications/webhook/subscriptions';
const UNKNOWN_EVENT = { endpoint: 'https://receiver.example/', eventName: 'Items.Sku.Teleported', eventVersion: 1 };

describe('code-status decisions (the HTTP status of a catalog code the reference does not give)', () => {
  const mocks = sideBySide({
    'code-status:NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND': 404,
    'code-status:COMMON.QUERY.SORTING_PARSING_FAILED': 422,
  });

  it('without decisions, answers a subscription to an unknown event with the inferred 400', async () => {
    const reply = await mocks.inferred.call('POST', SUBSCRIPTIONS, {
      body: UNKNOWN_EVENT,
      op: 'createWebhookSubscription',
    });
    expectProblem(reply, 400, 'NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND', `POST ${SUBSCRIPTIONS}`);
  });

  it('with the decision, answers it with the observed 404, the body status following', async () => {
    const reply = await mocks.observed.call('POST', SUBSCRIPTIONS, { body: UNKNOWN_EVENT });
    expectProblem(reply, 404, 'NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND', `POST ${SUBSCRIPTIONS}`);
    expect(reply.body.parameters).toEqual({ eventName: 'Items.Sku.Teleported', eventVersion: 1 });
  });

  it('without decisions, answers a bad sortBy with the inferred 400', async () => {
    const reply = await mocks.inferred.call('GET', '/v1/items/skus?sortBy=noSuchField', { op: 'listSkus' });
    expectProblem(reply, 400, 'COMMON.QUERY.SORTING_PARSING_FAILED');
  });

  it('with the decision, answers a bad sortBy with the observed 422', async () => {
    const reply = await mocks.observed.call('GET', '/v1/items/skus?sortBy=noSuchField');
    expectProblem(reply, 422, 'COMMON.QUERY.SORTING_PARSING_FAILED', 'GET /v1/items/skus');
  });

  it('keeps the documented 400 of a bad filter, which no decision can move', async () => {
    const reply = await mocks.observed.call('GET', '/v1/items/skus?filterBy=name[Nope]x', { op: 'listSkus' });
    expectProblem(reply, 400, 'COMMON.QUERY.FILTER_PARSING_FAILED');
  });

  it('records the adopted status in the request journal', async () => {
    await mocks.observed.call('POST', SUBSCRIPTIONS, { body: UNKNOWN_EVENT });
    const journal = await mocks.observed.call('GET', '/__mock/requests');
    const requests = journal.body.requests as { path: string; status: number; code?: string }[];
    const last = requests.filter((r) => r.path === SUBSCRIPTIONS).at(-1);
    expect(last).toMatchObject({ status: 404, code: 'NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND' });
  });
});
