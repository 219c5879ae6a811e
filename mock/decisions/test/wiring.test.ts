import { describe, expect, it } from 'vitest';
import { decisionPoints, type Decisions } from '../../../spec/decisions/index.js';
import { OPERATIONS } from '../../../spec/operations/index.js';
import { ok, type Handler } from '../../handlers/context.js';
import { buildMock } from '../../server.js';
import { expectProblem, injectHarness } from '../../test/harness.js';
import { adoptDecisions } from '../index.js';
import { decisionFile } from '../../../spec/decisions/test/decision-file.js';
import { hookNames } from './hooks.js';

/** A handler per operation of the contract, each a distinct function. */
function handlers(): Record<string, Handler> {
  return Object.fromEntries(OPERATIONS.map((op) => [op.operationId, () => ok(200, { op: op.operationId })]));
}

/** Every decision hook is named `adopted...` (mock/decisions/). */
const isDecisionHook = (name: string) => name.startsWith('adopted');

describe('the decision layer, wired by the composition root', () => {
  it('adds no hook at all to a mock without decisions', async () => {
    const mock = await buildMock({ port: 0 });
    try {
      expect(hookNames(mock.app, 'onRequest').filter(isDecisionHook)).toEqual([]);
      expect(hookNames(mock.app, 'onSend').filter(isDecisionHook)).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  it('adds the hooks of the decisions that differ, and only those', async () => {
    const mock = await buildMock({
      port: 0,
      decisions: decisionFile({
        'code-status:NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND': 404,
        'other-api-key-with-bearer': 'ignored',
        'retry-delay': { header: 'Retry-After', unit: 'seconds' },
      }),
    });
    try {
      expect(hookNames(mock.app, 'onRequest').filter(isDecisionHook)).toEqual(['adoptedKeyIgnoredBesideBearer']);
      expect(hookNames(mock.app, 'onSend').filter(isDecisionHook)).toEqual(['adoptedKeyPutBack', 'adoptedCodeStatus']);
    } finally {
      await mock.close();
    }
  });

  it('decorates nothing when every decision equals the contract inference', () => {
    const inferred: Decisions = new Map([...decisionPoints().values()].map((p) => [p.id, p.inferred]));
    const adopted = adoptDecisions(inferred);
    const h = handlers();
    expect(adopted.app.onRequest).toEqual([]);
    expect(adopted.app.onSend).toEqual([]);
    expect(adopted.handlers(h)).toBe(h);
    expect(adopted.options).toEqual({ textCase: 'insensitive', equalsCase: 'sensitive', nullOrder: 'first' });
  });

  it('sets the list engine option from the text-case decision, visible in the mock options', async () => {
    const mock = await buildMock({ port: 0, decisions: decisionFile({ 'text-case': 'sensitive' }) });
    try {
      expect(mock.control.options.textCase).toBe('sensitive');
    } finally {
      await mock.close();
    }
    const plain = await buildMock({ port: 0 });
    expect(plain.control.options.textCase).toBe('insensitive');
    await plain.close();
  });

  it('applies planted faults after the decisions: a fault breaks the adopted behaviour', async () => {
    const h = await injectHarness({
      decisions: decisionFile({ 'code-status:NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND': 404 }),
      faults: new Set(['problem-status-mismatch']),
    });
    try {
      const reply = await h.call('POST', '/v1/notifications/webhook/subscriptions', {
        body: { endpoint: 'https://receiver.example/', eventName: 'Items.Sku.Teleported', eventVersion: 1 },
      });
      // The adopted status goes out; the fault then sets the body's `status` to another one.
      expect(reply.status).toBe(404);
      expect(reply.body.code).toBe('NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND');
      expect(reply.body.status).toBe(400);
    } finally {
      await h.close();
    }
  });

  it('keeps every other answer of the mock as it was', async () => {
    const h = await injectHarness({ decisions: decisionFile({ 'code-status:COMMON.VALIDATION.ERROR': 422 }) });
    try {
      expectProblem(await h.call('GET', '/v1/errors/NO.SUCH.CODE'), 404, 'COMMON.ENTITY.NOT_FOUND');
      expect((await h.call('GET', '/v1/items/skus?pageSize=1', { op: 'listSkus' })).status).toBe(200);
    } finally {
      await h.close();
    }
  });
});
