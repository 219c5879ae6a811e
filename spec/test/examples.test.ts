import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMock } from '../../index.js';
import { DEMO_WORLD } from '../examples/demo-world.js';
import { committedDocument, committedValidator } from './load.js';
import {
  docOperation,
  docOperations,
  evaluate,
  exampleRequest,
  resolveParameter,
  send,
  type Answer,
  type DocOperation,
} from './example-requests.js';

const doc = committedDocument();
const validator = committedValidator();
const operations = docOperations(doc);

/** Every link of every success response: source, name and link object. */
const links = operations.flatMap((source) =>
  Object.entries<Record<string, any>>(source.op.responses[String(source.successStatus)].links ?? {}).map(
    ([name, link]) => ({ source, name, link }),
  ),
);

let mock: RunningMock;
let token: string;

/** An admin of tenant `demo`: role App.Admin and every permission the document names, minted by the mock. */
async function mintDemoToken(): Promise<string> {
  const permissions = [
    ...new Set(operations.map((o) => o.op['x-permission']).filter((p): p is string => typeof p === 'string')),
  ];
  const minted = await send(
    mock.url,
    {
      method: 'POST',
      url: '/__mock/tokens',
      headers: {},
      body: { org: DEMO_WORLD.org, roles: ['App.Admin'], permissions },
    },
    null,
  );
  expect(minted.status, minted.text).toBe(201);
  return minted.body.token as string;
}

/** Gives tenant `demo` a fresh seeded world, as a just-started mock has. */
async function freshDemoTenant(): Promise<void> {
  const reset = await send(mock.url, { method: 'POST', url: '/__mock/reset', headers: {}, body: {} }, token);
  expect(reset.status, reset.text).toBe(200);
}

/** Asserts the operation's success status and that the answer satisfies the contract. */
function expectSuccess(op: DocOperation, answer: Answer, what: string): void {
  expect(answer.status, `${what}: ${answer.text.slice(0, 300)}`).toBe(op.successStatus);
  expect(
    validator.validateResponse(op.operationId, {
      status: answer.status,
      contentType: answer.contentType,
      body: answer.body,
    }),
    what,
  ).toEqual({ ok: true });
}

/** Runs, in order, the examples of the operations named by `x-example-requires` (create-then-use). */
async function runRequirements(operationIds: readonly string[]): Promise<void> {
  for (const id of operationIds) {
    const op = docOperation(doc, id);
    expectSuccess(op, await send(mock.url, exampleRequest(doc, op), token), `${id} (required example)`);
  }
}

const requirementsOf = (op: DocOperation): string[] => (op.op['x-example-requires'] as string[] | undefined) ?? [];

beforeAll(async () => {
  // The mock as `npm start` runs it (seed, SKUs, rate limit, admin API), on a free loopback port.
  mock = await startMockServer({ port: 0 });
  token = await mintDemoToken();
});

afterAll(async () => {
  await mock?.close();
});

describe('the examples of the contract', () => {
  it('cover every path parameter, every query parameter and every request body', () => {
    for (const op of operations) {
      for (const raw of op.op.parameters ?? []) {
        const p = resolveParameter(doc, raw);
        expect(p.example, `${op.operationId} ${p.in} ${p.name}`).toBeDefined();
      }
      if (op.op.requestBody)
        expect(op.op.requestBody.content['application/json'].example, `${op.operationId} body`).toBeDefined();
    }
  });

  it('name, for filterBy and sortBy, only fields of the operation itself', () => {
    for (const op of operations.filter((o) => o.op['x-filterable'])) {
      const params = (op.op.parameters as Record<string, any>[]).map((p) => resolveParameter(doc, p));
      const body = op.op.requestBody?.content['application/json'].example as Record<string, unknown> | undefined;
      const filterBy = String(params.find((p) => p.name === 'filterBy')?.example ?? body?.filterBy);
      const sortBy = String(params.find((p) => p.name === 'sortBy')?.example ?? body?.sortBy);
      const filterable = (op.op['x-filterable'] as { field: string }[]).map((f) => f.field);
      for (const [, field] of filterBy.matchAll(/([A-Za-z]+)\[/g))
        expect(filterable, `${op.operationId} filterBy ${filterBy}`).toContain(field);
      for (const segment of sortBy.split(','))
        expect(op.op['x-sortable'], `${op.operationId} sortBy ${sortBy}`).toContain(segment.trim().replace(/^-/, ''));
    }
  });

  it.each(operations.map((op) => [op.operationId, op] as const))(
    'of %s, sent together to a fresh demo tenant, get its success status',
    async (_id, op) => {
      await freshDemoTenant();
      await runRequirements(requirementsOf(op));
      const req = exampleRequest(doc, op, { withOptional: true });
      expectSuccess(op, await send(mock.url, req, token), `${req.method} ${req.url}`);
    },
  );

  it('address the records the mock creates first in a fresh tenant (create-then-use)', async () => {
    await freshDemoTenant();
    const created = await send(mock.url, exampleRequest(doc, docOperation(doc, 'createWebhookSubscription')), token);
    const deleteOp = docOperation(doc, 'deleteWebhookSubscription');
    expect(created.body.id).toBe(resolveParameter(doc, deleteOp.op.parameters[0]).example);
  });
});

describe('the links of the contract', () => {
  it('exist for the flows a client walks', () => {
    const pairs = links.map(({ source, link }) => `${source.operationId} -> ${link.operationId}`);
    expect(pairs).toEqual(
      expect.arrayContaining([
        'createWebhookSubscription -> deleteWebhookSubscription',
        'listWebhookNotifications -> getWebhookNotification',
        'listWebhookNotifications -> listWebhookNotificationAttempts',
        'listWebhookNotifications -> retryWebhookNotification',
        'listSkus -> updateSkuStock',
        'listSkus -> updateSkuInspection',
        'createApiKey -> listSkus',
      ]),
    );
  });

  it.each(links.map((l) => [`${l.source.operationId} -> ${l.name}`, l] as const))(
    '%s: followed from a fresh demo tenant, leads to a success',
    async (_name, { source, link }) => {
      const target = docOperation(doc, link.operationId as string);
      await freshDemoTenant();
      // The target's example preconditions make the source's answer carry what the link takes (a notification to list).
      await runRequirements([...new Set([...requirementsOf(source), ...requirementsOf(target)])]);
      // The source without its optional parameters: a list answers in its default order.
      const first = await send(mock.url, exampleRequest(doc, source, { withOptional: false }), token);
      expectSuccess(source, first, `${source.operationId} (link source)`);

      const values = Object.fromEntries(
        Object.entries<string>(link.parameters ?? {}).map(([name, expression]) => [name, evaluate(expression, first)]),
      );
      for (const [name, value] of Object.entries(values))
        expect(value, `${name} of ${JSON.stringify(link.parameters)}`).toBeTruthy();
      // A link that hands over the API key calls with the key alone (Authentication, point 2), no bearer token.
      const withKey = 'header.X-Api-Key' in values;
      const req = exampleRequest(doc, target, { withOptional: false, values });
      expectSuccess(target, await send(mock.url, req, withKey ? null : token), `${req.method} ${req.url}`);
    },
  );
});
