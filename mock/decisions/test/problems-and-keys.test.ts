import { describe, expect, it } from 'vitest';
import { RFC9110_401_TYPE } from '../../../spec/schemas/problem.js';
import { sideBySide } from './side-by-side.js';

const DATATRACKER_401 = 'https://datatracker.ietf.org/doc/html/rfc9110#section-15.5.2';

describe('problem decisions (Errors / Problem body: media type and the plain 401 address not shown)', () => {
  const mocks = sideBySide({ 'problem-media-type': 'application/json', 'problem-401-type': DATATRACKER_401 });

  it('sends problems as application/problem+json without decisions, as application/json with them', async () => {
    const path = '/v1/items/skus?sortBy=noSuchField';
    expect((await mocks.inferred.call('GET', path)).headers['content-type']).toMatch(/^application\/problem\+json/);
    const reply = await mocks.observed.call('GET', path);
    expect(reply.status).toBe(400);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.body.code).toBe('COMMON.QUERY.SORTING_PARSING_FAILED');
  });

  it('gives the plain 401 the observed address of RFC 9110 section 15.5.2, and keeps it without code', async () => {
    const inferred = await mocks.inferred.call('GET', '/v1/items/skus', { token: null });
    expect(inferred.body.type).toBe(RFC9110_401_TYPE);
    const reply = await mocks.observed.call('GET', '/v1/items/skus', { token: null });
    expect(reply.status).toBe(401);
    expect(reply.body.type).toBe(DATATRACKER_401);
    expect(reply.body).not.toHaveProperty('code');
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
  });

  it('leaves successes alone', async () => {
    const reply = await mocks.observed.call('GET', '/v1/items/skus?pageSize=1');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('API key decisions (Authentication, points 1-2: what the key does alone or repeating the token, not shown)', () => {
  const mocks = sideBySide({ 'api-key-alone': 'refused', 'key-repeating-bearer': 'refused' });

  async function keyOf(h: typeof mocks.inferred): Promise<string> {
    const created = await h.call('POST', '/v1/access/apiKeys', { body: { name: 'reach' } });
    return created.body.key as string;
  }

  it('accepts a key alone without decisions, refuses it with the plain 401 when observed refused', async () => {
    const inferred = await mocks.inferred.call('GET', '/v1/items/skus?pageSize=1', {
      token: null,
      apiKey: await keyOf(mocks.inferred),
    });
    expect(inferred.status).toBe(200);
    const reply = await mocks.observed.call('GET', '/v1/items/skus?pageSize=1', {
      token: null,
      apiKey: await keyOf(mocks.observed),
    });
    expect(reply.status).toBe(401);
    expect(reply.body).not.toHaveProperty('code');
  });

  it('still accepts the key beside the bearer token', async () => {
    const reply = await mocks.observed.call('GET', '/v1/items/skus?pageSize=1', {
      apiKey: await keyOf(mocks.observed),
    });
    expect(reply.status).toBe(200);
  });

  it('refuses the bearer token repeated in X-Api-Key when observed refused', async () => {
    const inferred = await mocks.inferred.call('GET', '/v1/items/skus?pageSize=1', { apiKey: mocks.inferred.admin });
    expect(inferred.status).toBe(200);
    const reply = await mocks.observed.call('GET', '/v1/items/skus?pageSize=1', { apiKey: mocks.observed.admin });
    expect(reply.status).toBe(401);
  });
});
