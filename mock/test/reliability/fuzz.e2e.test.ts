/**
 * Random and adversarial requests to every operation of the contract. Invariants: never a 5xx, never a hang (every
 * request has a timeout), every error a problem body, every answer of an operation valid against the contract, and
 * requests that are refused change nothing.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureManifest } from '../../../fixtures/seed/index.js';
import { OPERATIONS } from '../../../spec/operations/index.js';
import type { Harness } from '../harness.js';
import {
  method,
  schemaKeys,
  ADVERSARIAL_SEGMENTS,
  segmentArb,
  ADVERSARIAL_BODIES,
  CONTENT_TYPES,
  wrongValue,
  textValue,
  endpointValue,
  EVENT_NAMES,
  pageArb,
  filterArb,
  sortArb,
} from './arbitraries.js';
import { RUNS, startFuzzEnv, stopFuzzEnv, type FuzzEnv } from './fuzz-env.js';
import {
  bearer,
  encodeSegment,
  operationOf,
  pathOf,
  probe,
  validRequest,
  type Wire,
  type Receiver,
  type WireReply,
} from './support.js';
import { binaryString } from '../../../test/support/arbitraries.js';

describe('fuzzing every operation', () => {
  let h: Harness;
  let wire: Wire;
  let m: FixtureManifest;
  let receiver: Receiver;
  let forged: { name: string; token: string }[];
  const ids: { subscriptionId?: string; notificationId?: string } = {};
  let env: FuzzEnv | undefined;

  beforeAll(async () => {
    env = await startFuzzEnv(ids);
    ({ h, wire, m, receiver, forged } = env);
  });

  afterAll(() => stopFuzzEnv(env ?? {}));

  describe.each(OPERATIONS.map((op) => ({ operationId: op.operationId, op })))('$operationId', ({ op }) => {
    if (op.pathParams.length > 0)
      it('keeps the invariants with traversal, encoded, control, Unicode and overlong path parameters', async () => {
        const base = validRequest(op, m, ids);
        const params = fc.record(
          Object.fromEntries(op.pathParams.map((p) => [p.name, segmentArb])) as Record<string, fc.Arbitrary<string>>,
        );
        await fc.assert(
          fc.asyncProperty(params, async (values) => {
            const path = pathOf(op, values);
            const reply = await probe(wire, {
              method: method(op),
              path,
              headers: bearer(h.admin),
              ...(base.body !== undefined ? { body: base.body } : {}),
            });
            // A random parameter addresses nothing (or is refused as invalid); only the error catalog may know a code.
            // (A segment like `subscriptions` may reach another operation: the invariants were checked for that one.)
            if (op.operationId !== 'getError' && operationOf(method(op), path) === op)
              expect([400, 404, 405], `${path} -> ${reply.status}`).toContain(reply.status);
          }),
          { numRuns: RUNS },
        );
        for (const segment of ADVERSARIAL_SEGMENTS) {
          const values = Object.fromEntries(op.pathParams.map((p) => [p.name, segment]));
          await probe(wire, {
            method: method(op),
            path: pathOf(op, values),
            headers: bearer(h.admin),
            ...(base.body !== undefined ? { body: base.body } : {}),
          });
        }
      });

    if (op.requestBody !== undefined)
      it('keeps the invariants with malformed, mistyped, Unicode and deeply nested bodies', async () => {
        const { path, body: valid = '{}' } = validRequest(op, m, ids);
        const keys = schemaKeys(op.requestBody?.schema ?? '');
        const fieldValue = (key: string) =>
          key === 'endpoint'
            ? fc.oneof(endpointValue(receiver.url), wrongValue)
            : key === 'eventName'
              ? fc.oneof(fc.constantFrom(...EVENT_NAMES), textValue, wrongValue)
              : fc.oneof(textValue, wrongValue);
        const objectBody = fc
          .record(Object.fromEntries(keys.map((k) => [k, fieldValue(k)])) as Record<string, fc.Arbitrary<unknown>>, {
            requiredKeys: [],
          })
          .chain((o) =>
            fc
              .option(fc.tuple(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 })), { nil: undefined })
              .map((extra) => (extra ? { ...o, [extra[0]]: extra[1] } : o)),
          )
          .map((o) => JSON.stringify(o));
        const bodyArb = fc.oneof(
          objectBody,
          binaryString({ maxLength: 200 }),
          fc.json({ maxDepth: 3 }),
          fc.nat({ max: valid.length }).map((n) => valid.slice(0, n)),
          fc.constantFrom(...ADVERSARIAL_BODIES),
          fc.constantFrom(...keys).map((k) => `{"${k}":1e999}`),
        );
        await fc.assert(
          fc.asyncProperty(
            bodyArb,
            fc.constantFrom(...CONTENT_TYPES),
            fc.boolean(),
            async (body, contentType, withType) => {
              const headers = {
                authorization: `Bearer ${h.admin}`,
                ...(withType ? { 'content-type': contentType } : {}),
              };
              await probe(wire, { method: method(op), path, headers, body });
            },
          ),
          { numRuns: RUNS * 2 },
        );
        for (const body of ADVERSARIAL_BODIES) {
          const reply = await probe(
            wire,
            { method: method(op), path, headers: bearer(h.admin), body },
            'adversarial body',
          );
          // `{}` is a complete search (every list parameter is optional); everything else is refused.
          if (!(op.operationId === 'searchFamilies' && body === '{}'))
            expect(reply.status, body.slice(0, 40)).toBeGreaterThanOrEqual(400);
        }
        // 100 KB strings, under the body limit: refused or answered, never a failure.
        for (const key of keys) {
          const big = JSON.stringify({ ...(JSON.parse(valid) as object), [key]: `\u202e${'x'.repeat(100 * 1024)}` });
          await probe(wire, { method: method(op), path, headers: bearer(h.admin), body: big }, `100 KB ${key}`);
        }
      });

    if (op.list !== undefined)
      it('keeps the invariants with mangled list parameters', async () => {
        const list = op.list!;
        const fields = list.fields.map((f) => f.name);
        const { path, body: valid } = validRequest(op, m, ids);
        if (list.parametersIn === 'query') {
          const repeated = <T>(arb: fc.Arbitrary<T>) =>
            fc.option(fc.array(arb, { minLength: 1, maxLength: 3 }), { nil: undefined });
          const query = fc.record({
            pageNumber: repeated(pageArb),
            pageSize: repeated(pageArb),
            filterBy: repeated(filterArb(fields)),
            sortBy: repeated(sortArb(fields)),
            odd: fc.option(
              fc.constantFrom(
                'pageSize[]=1',
                'pageSize[a]=1',
                'filterBy[]=x',
                'sortBy[0]=id',
                '__proto__[x]=1',
                'pageNumber',
                '&&&',
                '=',
                'pageSize=%',
                'filterBy=%ED%A0%80',
              ),
              { nil: undefined },
            ),
          });
          await fc.assert(
            fc.asyncProperty(query, async (q) => {
              const parts: string[] = [];
              for (const name of ['pageNumber', 'pageSize', 'filterBy', 'sortBy'] as const)
                for (const v of q[name] ?? []) parts.push(`${name}=${encodeSegment(v)}`);
              if (q.odd) parts.push(q.odd);
              const full = `${path}?${parts.join('&')}`;
              const reply = await probe(wire, { method: 'GET', path: full, headers: bearer(h.admin) });
              expect([200, 400, 431], `${full.slice(0, 200)} -> ${reply.status}`).toContain(reply.status);
            }),
            { numRuns: RUNS * 2 },
          );
        } else {
          const anyValue = (arb: fc.Arbitrary<unknown>) => fc.option(fc.oneof(arb, wrongValue), { nil: undefined });
          const body = fc.record({
            pageNumber: anyValue(fc.oneof(fc.integer({ min: -10, max: 100_000 }), fc.double())),
            pageSize: anyValue(fc.oneof(fc.integer({ min: -10, max: 2000 }), fc.double())),
            filterBy: anyValue(filterArb(fields)),
            sortBy: anyValue(sortArb(fields)),
          });
          await fc.assert(
            fc.asyncProperty(body, async (b) => {
              const reply = await probe(wire, {
                method: method(op),
                path,
                headers: bearer(h.admin),
                body: JSON.stringify(b),
              });
              expect([200, 400], `${JSON.stringify(b).slice(0, 200)} -> ${reply.status}`).toContain(reply.status);
            }),
            { numRuns: RUNS * 2 },
          );
          expect(valid).toBeDefined();
        }
      });

    it('refuses forged, tampered and expired tokens and bad API keys with the plain 401', async () => {
      const { path, body } = validRequest(op, m, ids);
      const send = async (headers: Record<string, string>, context: string): Promise<WireReply> => {
        const reply = await probe(
          wire,
          {
            method: method(op),
            path,
            headers: { 'content-type': 'application/json', ...headers },
            ...(body !== undefined ? { body } : {}),
          },
          context,
        );
        expect(reply.status, `${context}: ${reply.text.slice(0, 200)}`).toBe(401);
        expect(reply.body, context).not.toHaveProperty('code');
        return reply;
      };
      for (const { name, token } of forged) await send({ authorization: `Bearer ${token}` }, name);
      const printable = fc.string({
        unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
        minLength: 1,
        maxLength: 300,
      });
      const latin1 = fc.string({
        unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)),
        minLength: 1,
        maxLength: 20,
      });
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            printable,
            latin1,
            printable.map((s) => `opsk_${s}`),
          ),
          fc.boolean(),
          async (key, withToken) => {
            await send(
              { 'x-api-key': key, ...(withToken ? { authorization: `Bearer ${h.admin}` } : {}) },
              `X-Api-Key ${JSON.stringify(key.slice(0, 40))}`,
            );
          },
        ),
        { numRuns: RUNS },
      );
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            printable,
            printable.map((s) => `Bearer ${s}`),
            printable.map((s) => `Bearer ${s}.${s}.${s}`),
          ),
          async (value) => {
            await send({ authorization: value }, `Authorization ${JSON.stringify(value.slice(0, 40))}`);
          },
        ),
        { numRuns: RUNS },
      );
    });

    it('answers every status forced with Prefer within the contract', async () => {
      const { path, body } = validRequest(op, m, ids);
      for (const e of op.errors) {
        const reply = await probe(wire, {
          method: method(op),
          path,
          headers: bearer(h.admin, { prefer: `code=${e.status}` }),
          ...(body !== undefined ? { body } : {}),
        });
        expect(reply.status).toBe(e.status);
      }
      await fc.assert(
        fc.asyncProperty(
          fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 }),
          async (prefer) => {
            await probe(wire, {
              method: method(op),
              path: pathOf(op, {}),
              headers: bearer(h.admin, { prefer }),
              ...(body !== undefined ? { body: '{"x":' } : {}),
            });
          },
        ),
        { numRuns: Math.ceil(RUNS / 2) },
      );
    });
  });

  it('keeps request journal bodies bounded', async () => {
    const journal = await probe(wire, { method: 'GET', path: '/__mock/requests', headers: bearer(h.admin) });
    // Bodies over 4096 characters are kept as a 4096-character excerpt; smaller ones as parsed (numbers re-serialised
    // may grow, `1e5` -> `100000`, hence the slack on those).
    const bodies = (journal.body.requests as { body: unknown }[]).map((e) => e.body);
    expect(bodies.length).toBeGreaterThan(100);
    for (const body of bodies) {
      if (typeof body === 'string') expect(body.length).toBeLessThanOrEqual(4096);
      else expect(JSON.stringify(body ?? null).length).toBeLessThanOrEqual(2 * 4096);
    }
  });
});
