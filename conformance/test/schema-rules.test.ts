/**
 * The two schema rules: `schema.responses-valid` (MUST) judges only what the reference documents of a response,
 * `schema.responses-valid.inferred` (SHOULD) the whole contract.
 */
import { describe, expect, it } from 'vitest';
import { contract } from '../contract/contract.js';
import type { Exchange } from '../wire/client.js';
import { SCHEMA_RULES } from '../rules/schema.js';
import type { ExchangeRule } from '../rules/index.js';

const [must, should] = SCHEMA_RULES as [ExchangeRule, ExchangeRule];
/** The level of the strictest rule that judges a response: MUST where the MUST rule applies to it. */
const responseLevel = (ex: Exchange) => (must.applies(ex) ? 'MUST' : 'SHOULD');
const env = { basePath: '', validator: contract().validator };

const PATHS: Record<string, [string, string]> = {
  createApiKey: ['POST', '/v1/access/apiKeys'],
  getError: ['GET', '/v1/errors/COMMON.ENTITY.NOT_FOUND'],
  createWebhookSubscription: ['POST', '/v1/notifications/webhook/subscriptions'],
  updateSkuStock: ['PUT', '/v1/items/skus/SKU-1/stock'],
  listSkus: ['GET', '/v1/items/skus'],
};

/** An exchange of an operation answered with a status and a JSON body (none when `body` is undefined). */
function exchange(operationId: string, status: number, body: unknown, contentType = 'application/json'): Exchange {
  const [method, path] = PATHS[operationId] ?? ['GET', '/'];
  const text = body === undefined ? '' : JSON.stringify(body);
  return {
    seq: 1,
    check: 'test',
    method,
    path,
    target: path,
    url: `http://127.0.0.1${path}`,
    requestHeaders: {},
    status,
    headers: body === undefined ? {} : { 'content-type': contentType },
    text,
    json: body,
    durationMs: 1,
    operationId,
  };
}

/** The findings of a rule for an exchange, or `not applied` when the rule does not judge it. */
function judged(rule: ExchangeRule, ex: Exchange): string[] | 'not applied' {
  return rule.applies(ex) ? rule.judge(ex, env).map((f) => f.message) : 'not applied';
}

const key = { id: 'key_1', key: 'opsk_secret', name: 'ci', orgCode: 'demo', isActive: true };
const entry = { code: 'COMMON.ENTITY.NOT_FOUND', title: 'Entity not found', description: 'd', parameters: [] };
const subscription = {
  id: 'sub_1',
  endpoint: 'http://127.0.0.1:4020/',
  eventName: 'Items.Sku.Created',
  eventVersion: 1,
};

describe('the MUST schema rule judges the documented core; the SHOULD rule the whole contract', () => {
  it('passes a faithful key creation answered 200 instead of 201, with extra fields, under MUST and fails it under SHOULD', () => {
    const ex = exchange('createApiKey', 200, { ...key, createdBy: 'someone' });
    expect(responseLevel(ex)).toBe('MUST');
    expect(judged(must, ex)).toEqual([]);
    const findings = judged(should, ex);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatch(/status 200 is not declared/);
  });

  it('passes a catalog entry without the inferred `status` field under MUST and fails it under SHOULD', () => {
    const ex = exchange('getError', 200, { ...entry, aliases: [] });
    expect(judged(must, ex)).toEqual([]);
    expect(judged(should, ex)).toEqual([expect.stringMatching(/required property 'status'/)]);
  });

  it('passes a subscription without the inferred `createdAt`: its create response is not documented, only SHOULD judges it', () => {
    const ex = exchange('createWebhookSubscription', 201, subscription);
    expect(responseLevel(ex)).toBe('SHOULD');
    expect(judged(must, ex)).toBe('not applied');
    expect(judged(should, ex)).toEqual([expect.stringMatching(/required property 'createdAt'/)]);
    expect(contract().validator.validateCore('Subscription', subscription)).toEqual({ ok: true });
  });

  it('fails a key creation without the documented `key` under MUST', () => {
    const { key: _key, ...noKey } = key;
    const ex = exchange('createApiKey', 201, noKey);
    expect(judged(must, ex)).toEqual([expect.stringMatching(/required property 'key'/)]);
  });

  it('takes "no content" as the MUST of the stock update under any 2xx; its 204 is a SHOULD', () => {
    expect(judged(must, exchange('updateSkuStock', 200, undefined))).toEqual([]);
    expect(judged(should, exchange('updateSkuStock', 200, undefined))).toEqual([
      expect.stringMatching(/status 200 is not declared/),
    ]);
    expect(judged(must, exchange('updateSkuStock', 200, { ok: true }))).toEqual([
      expect.stringMatching(/no response body/),
    ]);
    expect(judged(must, exchange('updateSkuStock', 204, undefined))).toEqual([]);
    expect(judged(should, exchange('updateSkuStock', 204, undefined))).toEqual([]);
  });

  it('never makes an undeclared 2xx a MUST finding where the reference gives no success status', () => {
    for (const status of [200, 201, 202, 204]) {
      const findings = judged(must, exchange('createApiKey', status, key));
      expect(findings, String(status)).toEqual([]);
    }
    expect(judged(must, exchange('getError', 201, entry))).toEqual([
      expect.stringMatching(/not the 200 the reference gives/),
    ]);
  });

  it('judges every error as a problem under MUST, its undeclared status under SHOULD only', () => {
    const problem = {
      type: 'https://x/errors/NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND',
      title: 'Event not found',
      status: 422,
      detail: 'd',
      instance: 'POST /v1/notifications/webhook/subscriptions',
      code: 'NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND',
    };
    const ex = exchange('createWebhookSubscription', 422, problem, 'application/problem+json');
    expect(responseLevel(ex)).toBe('MUST');
    expect(judged(must, ex)).toEqual([]);
    expect(judged(should, ex)).toEqual([expect.stringMatching(/status 422 is not declared/)]);
    expect(judged(must, exchange('listSkus', 400, { message: 'bad' }))).toEqual([
      expect.stringMatching(/required property/),
    ]);
  });

  it('leaves a success the reference does not document to the SHOULD rule', () => {
    const ex = exchange('listSkus', 200, { results: [] });
    expect(responseLevel(ex)).toBe('SHOULD');
    expect(judged(must, ex)).toBe('not applied');
    expect(judged(should, ex)).not.toEqual([]);
  });
});
