/**
 * The loop `opsapi learn` closes: a "real deployment" stand-in (the mock started with decisions that differ from the
 * contract's inferences) is probed; every difference is found; a mock started with the learned file answers like the
 * stand-in on each; and the runner given the learned file expects the observed values instead of the inferred ones.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMock } from '../../index.js';
import { decisionFile } from '../../spec/decisions/test/decision-file.js';
import type { DecisionFile } from '../../spec/decisions/index.js';
import { learnDecisions } from '../learn/learn.js';
import { runConformance } from '../orchestration/runner.js';

const DATATRACKER_401 = 'https://datatracker.ietf.org/doc/html/rfc9110#section-15.5.2';

/** What the stand-in does where the contract infers otherwise: points of every kind the mock adopts. */
const STAND_IN = {
  'code-status:NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND': 404,
  'code-status:COMMON.VALIDATION.ERROR': 422,
  'retry-delay': { header: 'X-RateLimit-Reset-After-Ms', unit: 'milliseconds' },
  'text-case': 'sensitive',
  'equals-case': 'insensitive',
  'other-api-key-with-bearer': 'ignored',
  'key-repeating-bearer': 'refused',
  'api-key-alone': 'refused',
  'success-status:createWebhookSubscription': 200,
  'success-status:retryWebhookNotification': 200,
  'default-order:listSkus': '-id',
  'null-order': 'last',
  'unknown-sort-field': 'ignored',
  'problem-media-type': 'application/json',
  'problem-401-type': DATATRACKER_401,
};

const RATE = { limit: 300, windowMs: 1000 };
const PROBE = { allowWrites: true, rateLimitProbe: true, webhooks: true, deliveryTimeoutMs: 5000 } as const;

let standIn: RunningMock;
let learned: DecisionFile;

beforeAll(async () => {
  standIn = await startMockServer({ port: 0, rateLimit: RATE, decisions: decisionFile(STAND_IN) });
  learned = await learnDecisions({ baseUrl: standIn.url, ...PROBE });
}, 60_000);

afterAll(async () => {
  await standIn?.close();
});

const observed = (file: DecisionFile) => Object.fromEntries(file.decisions.map((d) => [d.id, d.observed]));

describe('opsapi learn against a deployment whose decisions differ', () => {
  it('finds every difference, with the inferred and the observed value', () => {
    const found = observed(learned);
    for (const [id, value] of Object.entries(STAND_IN)) expect(found[id], id).toEqual(value);
    const differing = learned.decisions.filter((d) => d.differs).map((d) => d.id);
    expect(differing.sort()).toEqual(Object.keys(STAND_IN).sort());
    // The points that differ come first in the file, as in the console table.
    expect(learned.decisions.slice(0, differing.length).every((d) => d.differs)).toBe(true);
  });

  it('learns the points of the records, lists and webhooks too, equal to the contract on a mock', () => {
    const ids = learned.decisions.map((d) => d.id);
    for (const kind of ['record-fields:', 'list-fields:', 'list-form:', 'permission:'])
      expect(ids.filter((id) => id.startsWith(kind)).length, kind).toBeGreaterThan(3);
    for (const id of ['webhook-payload', 'webhook-event-id', 'webhook-attempt', 'catalog-texts', 'filter-precedence'])
      expect(ids, id).toContain(id);
  });

  it('keeps the evidence of what it probed, with the credentials redacted', () => {
    for (const id of Object.keys(STAND_IN))
      expect(learned.decisions.find((d) => d.id === id)?.evidence.length, id).toBeGreaterThan(0);
    const text = JSON.stringify(learned);
    expect(text).not.toMatch(/Bearer ey/);
    expect(text).toMatch(/Bearer <redacted>/);
  });

  it('records what it could not provoke, with the reason', async () => {
    const readOnly = await learnDecisions({ baseUrl: standIn.url });
    const why = Object.fromEntries(readOnly.notObserved.map((n) => [n.id, n.reason]));
    expect(why['success-status:createWebhookSubscription']).toMatch(/--allow-writes/);
    expect(why['webhook-payload']).toMatch(/--webhooks/);
    // A mock answers a 429 forced with Prefer: code=429, so the delay is learned without the burst.
    expect(observed(readOnly)['retry-delay']).toEqual(STAND_IN['retry-delay']);
    expect(observed(readOnly)['text-case']).toBe('sensitive');
  }, 30_000);
});

describe('a mock started with the learned decisions', () => {
  let adopted: RunningMock;
  beforeAll(async () => {
    adopted = await startMockServer({ port: 0, rateLimit: RATE, decisions: learned });
  });
  afterAll(async () => {
    await adopted?.close();
  });

  it('answers like the stand-in at every point learned', async () => {
    const again = await learnDecisions({ baseUrl: adopted.url, ...PROBE });
    const before = observed(learned);
    const after = observed(again);
    for (const id of Object.keys(before)) expect(after[id], id).toEqual(before[id]);
  }, 60_000);

  it('answers a few representative requests as the stand-in does', async () => {
    const get = (base: string, path: string, headers: Record<string, string> = {}) =>
      request(`${base}${path}`, { headers }).then(async (r) => ({
        status: r.statusCode,
        type: String(r.headers['content-type']),
        body: (await r.body.json()) as Record<string, unknown>,
      }));
    for (const base of [standIn.url, adopted.url]) {
      const anonymous = await get(base, '/v1/items/skus');
      expect(anonymous.status).toBe(401);
      expect(anonymous.type).toMatch(/^application\/json/);
      expect(anonymous.body.type).toBe(DATATRACKER_401);
    }
  });
});

describe('opsapi conform --decisions', () => {
  const ONLY = [
    'writes.subscription-event-not-found-400',
    'rate-limit.retry-after',
    'filters.contains-case-insensitive',
    'auth.401-other-key-with-bearer',
    'errors.status-code-pair',
  ];
  const outcome = (report: Awaited<ReturnType<typeof runConformance>>, id: string) =>
    report.checks.find((c) => c.id === id)?.outcome;

  it('fails the inferred expectations on the stand-in without the file, and passes them with it', async () => {
    const without = await runConformance({ baseUrl: standIn.url, ...PROBE, webhooks: false, only: ONLY });
    const withFile = await runConformance({
      baseUrl: standIn.url,
      ...PROBE,
      webhooks: false,
      only: ONLY,
      decisions: learned,
    });
    for (const id of ONLY.filter((i) => i !== 'errors.status-code-pair')) {
      expect(outcome(without, id), `${id} without decisions`).toBe('fail');
      expect(outcome(withFile, id), `${id} with decisions`).toBe('pass');
    }
    expect(outcome(without, 'errors.status-code-pair.inferred')).toBe('fail');
    expect(outcome(withFile, 'errors.status-code-pair.inferred')).toBe('pass');
    // What was observed stays a SHOULD: a deployment's own decisions never make a MUST.
    for (const c of withFile.checks.filter((x) => ONLY.some((o) => x.id.startsWith(o))))
      if (c.id !== 'errors.status-code-pair') expect(c.level, c.id).toBe('SHOULD');
  }, 60_000);
});
