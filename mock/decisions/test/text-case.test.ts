import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectHarness, type InjectHarness } from '../../test/harness.js';
import { decisionFile } from '../../../spec/decisions/test/decision-file.js';

const SUBSCRIPTIONS = '/v1/notifications/webhook/subscriptions';

/** The endpoints of the subscriptions a filter finds. */
async function endpoints(h: InjectHarness, filterBy: string): Promise<string[]> {
  const reply = await h.call('GET', `${SUBSCRIPTIONS}?filterBy=${encodeURIComponent(filterBy)}`, {
    op: 'listWebhookSubscriptions',
  });
  expect(reply.status, reply.text).toBe(200);
  return (reply.body.results as { endpoint: string }[]).map((s) => s.endpoint);
}

/** A mock whose tenant has one subscription, to https://receiver.example/Foo. */
async function withFoo(overrides: Parameters<typeof injectHarness>[0] = {}): Promise<InjectHarness> {
  const h = await injectHarness(overrides);
  const created = await h.call('POST', SUBSCRIPTIONS, {
    body: { endpoint: 'https://receiver.example/Foo', eventName: 'Items.Sku.Created', eventVersion: 1 },
  });
  expect(created.status).toBe(201);
  return h;
}

describe('the text-case decision (case sensitivity of Contains, StartsWith and EndsWith)', () => {
  let insensitive: InjectHarness;
  let sensitive: InjectHarness;

  beforeAll(async () => {
    insensitive = await withFoo();
    sensitive = await withFoo({ decisions: decisionFile({ 'text-case': 'sensitive' }) });
  });

  afterAll(async () => {
    await insensitive?.close();
    await sensitive?.close();
  });

  it('without decisions, Contains finds "Foo" for "Foo" and for "foo"', async () => {
    expect(await endpoints(insensitive, 'endpoint[Contains]Foo')).toEqual(['https://receiver.example/Foo']);
    expect(await endpoints(insensitive, 'endpoint[Contains]foo')).toEqual(['https://receiver.example/Foo']);
  });

  it('with the decision sensitive, Contains finds "Foo" for "Foo" and not for "foo"', async () => {
    expect(await endpoints(sensitive, 'endpoint[Contains]Foo')).toEqual(['https://receiver.example/Foo']);
    expect(await endpoints(sensitive, 'endpoint[Contains]foo')).toEqual([]);
  });

  it('with the decision sensitive, StartsWith and EndsWith compare case-sensitively too', async () => {
    expect(await endpoints(sensitive, 'endpoint[StartsWith]https://receiver')).toHaveLength(1);
    expect(await endpoints(sensitive, 'endpoint[StartsWith]HTTPS://receiver')).toEqual([]);
    expect(await endpoints(sensitive, 'endpoint[EndsWith]/Foo')).toHaveLength(1);
    expect(await endpoints(sensitive, 'endpoint[EndsWith]/FOO')).toEqual([]);
  });

  it('keeps the case-insensitive mock insensitive for the very same filter text (the two share a process)', async () => {
    expect(await endpoints(sensitive, 'endpoint[Contains]foo')).toEqual([]);
    expect(await endpoints(insensitive, 'endpoint[Contains]foo')).toEqual(['https://receiver.example/Foo']);
  });

  it('with the decision sensitive, filters an indexed list (SKUs) and a plain one (events) case-sensitively', async () => {
    const first = await sensitive.call('GET', '/v1/items/skus?pageSize=1&sortBy=name');
    const name = first.body.results[0].name as string;
    const upper = name.toUpperCase() === name ? name.toLowerCase() : name.toUpperCase();
    const found = async (text: string) =>
      (await sensitive.call('GET', `/v1/items/skus?filterBy=${encodeURIComponent(`name[Contains]${text}`)}`)).body
        .totalCount as number;
    expect(await found(name)).toBeGreaterThanOrEqual(1);
    expect(await found(upper)).toBe(0);
    const events = async (h: InjectHarness, text: string) =>
      (await h.call('GET', `/v1/notifications/events?filterBy=${encodeURIComponent(`eventName[Contains]${text}`)}`))
        .body.totalCount as number;
    expect(await events(sensitive, 'Sku.Created')).toBeGreaterThanOrEqual(1);
    expect(await events(sensitive, 'sku.created')).toBe(0);
    expect(await events(insensitive, 'sku.created')).toBeGreaterThanOrEqual(1);
  });
});
