import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, injectHarness, type InjectHarness } from './harness.js';

/**
 * The admin API validates bodies and queries with TypeBox schemas through Fastify; the answers keep their order:
 * media type (415), authentication (401), JSON (400), schema (400), then the route.
 */
describe('admin API validation', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  it('answers an anonymous tenant-scoped call with the plain 401 before reading its body', async () => {
    expectProblem(
      await h.call('POST', '/__mock/clock', { token: null, raw: '{"advanceSeconds":' }),
      401,
      null,
      'POST /__mock/clock',
    );
  });

  it('answers a media type it does not read with 415 before authentication', async () => {
    const reply = await h.call('POST', '/__mock/clock', {
      token: null,
      raw: 'advanceSeconds=5',
      headers: { 'content-type': 'text/plain' },
    });
    expectProblem(reply, 415, null, 'POST /__mock/clock');
  });

  it('answers invalid JSON of an authenticated call with 400 naming no field', async () => {
    const reply = await h.call('POST', '/__mock/clock', { raw: '{"advanceSeconds":' });
    expectProblem(reply, 400, 'COMMON.VALIDATION.ERROR', 'POST /__mock/clock');
    expect(reply.body.parameters).toEqual({ field: '' });
    expect(reply.body.detail).toMatch(/^The body is not valid JSON: /);
  });

  it('answers a body that is not an object with 400 naming no field', async () => {
    const reply = await h.call('POST', '/__mock/tokens', { token: null, body: ['demo'] });
    expectProblem(reply, 400, 'COMMON.VALIDATION.ERROR', 'POST /__mock/tokens');
    expect(reply.body).toMatchObject({ detail: 'The body must be a JSON object.', parameters: { field: '' } });
  });

  it('does not coerce types: a number sent as text is refused, naming the field with the route detail', async () => {
    const reply = await h.call('POST', '/__mock/tokens', { token: null, body: { org: 'ok', expiresIn: '60' } });
    expectProblem(reply, 400, 'COMMON.VALIDATION.ERROR');
    expect(reply.body.parameters).toEqual({ field: 'expiresIn' });
    expect(reply.body.detail).toBe(
      'expiresIn must be an integer number of seconds up to one year (negative values mint expired tokens).',
    );
  });

  it('names the first invalid field in the order of the schema', async () => {
    const reply = await h.call('POST', '/__mock/tokens', { token: null, body: { org: 'bad org', roles: 'App.Admin' } });
    expect(reply.body.parameters).toEqual({ field: 'org' });
  });

  it('ignores members it does not know', async () => {
    const reply = await h.call('POST', '/__mock/tokens', { token: null, body: { org: 'ok', note: 'kept out' } });
    expect(reply.status).toBe(201);
  });

  it('refuses event data nested deeper than 64 levels, naming data', async () => {
    const deep = JSON.parse(`${'{"a":'.repeat(70)}1${'}'.repeat(70)}`) as unknown;
    const reply = await h.call('POST', '/__mock/events', { body: { eventName: 'Items.Sku.Created', data: deep } });
    expectProblem(reply, 400, 'COMMON.VALIDATION.ERROR', 'POST /__mock/events');
    expect(reply.body).toMatchObject({
      detail: 'data must not nest deeper than 64 levels.',
      parameters: { field: 'data' },
    });
  });

  it('resets every tenant only for {all: true}: another value is a tenant reset, which needs credentials', async () => {
    expectProblem(await h.call('POST', '/__mock/reset', { token: null, body: { all: 'yes' } }), 401, null);
  });

  it('reads ?gc= as a flag: a repeated parameter forces nothing and is no error', async () => {
    const reply = await h.call('GET', '/__mock/stats?gc=1&gc=1', { token: null });
    expect(reply.status).toBe(200);
    expect(reply.body.gcForced).toBe(false);
  });
});
