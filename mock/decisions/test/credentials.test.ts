import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectHarness, type InjectHarness } from '../../test/harness.js';
import { decisionFile } from '../../../spec/decisions/test/decision-file.js';

const UNKNOWN_KEY = 'opsk_made-up-key-that-nobody-created';

describe('the other-api-key-with-bearer decision (a valid bearer token beside a different, unknown X-Api-Key)', () => {
  let refused: InjectHarness;
  let ignored: InjectHarness;

  beforeAll(async () => {
    refused = await injectHarness();
    ignored = await injectHarness({ decisions: decisionFile({ 'other-api-key-with-bearer': 'ignored' }) });
  });

  afterAll(async () => {
    await refused?.close();
    await ignored?.close();
  });

  it('without decisions, refuses both credentials with the plain 401', async () => {
    const reply = await refused.call('GET', '/v1/items/skus?pageSize=1', { apiKey: UNKNOWN_KEY });
    expect(reply.status).toBe(401);
    expect(reply.body).not.toHaveProperty('code');
  });

  it('with the decision ignored, ignores the key and answers with the bearer token', async () => {
    const reply = await ignored.call('GET', '/v1/items/skus?pageSize=1', { apiKey: UNKNOWN_KEY, op: 'listSkus' });
    expect(reply.status).toBe(200);
    expect(reply.body.results).toHaveLength(1);
  });

  it('with the decision ignored, uses the bearer token permissions, not the key', async () => {
    const reply = await ignored.call('POST', '/v1/access/apiKeys', {
      token: ignored.limited,
      apiKey: UNKNOWN_KEY,
      body: { name: 'k' },
    });
    expect(reply.status).toBe(403);
  });

  it('with the decision ignored, still refuses the unknown key sent alone', async () => {
    const reply = await ignored.call('GET', '/v1/items/skus', { token: null, apiKey: UNKNOWN_KEY });
    expect(reply.status).toBe(401);
  });

  it('with the decision ignored, still shows the key in the request journal', async () => {
    await ignored.call('GET', '/v1/items/skus?pageSize=2', { apiKey: UNKNOWN_KEY });
    const journal = await ignored.call('GET', '/__mock/requests');
    const requests = journal.body.requests as { queryString: string; headers: Record<string, string> }[];
    const sent = requests.find((r) => r.queryString === 'pageSize=2');
    expect(sent?.headers['x-api-key']).toBe('[redacted]');
  });
});
