import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

/** One request over a real socket with the headers as given: an array value is sent as repeated header lines. */
function send(url: string, path: string, headers: Record<string, string | string[]>) {
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = request(`${url}${path}`, { headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('credentials sent twice', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  it('answers one Authorization with the list', async () => {
    const reply = await send(h.url, '/v1/items/skus?pageSize=1', { authorization: `Bearer ${h.admin}` });
    expect(reply.status).toBe(200);
  });

  it.each([
    [
      'two Authorization headers, the first valid',
      'authorization',
      (h: Harness) => [`Bearer ${h.admin}`, 'Bearer x.y.z'],
    ],
    ['the same valid token twice', 'authorization', (h: Harness) => [`Bearer ${h.admin}`, `Bearer ${h.admin}`]],
    ['two X-Api-Key headers', 'x-api-key', () => ['key-one', 'key-two']],
  ])('refuses %s with the plain 401, naming the header', async (_what, header, values) => {
    const reply = await send(h.url, '/v1/items/skus?pageSize=1', { [header]: values(h) });
    expect(reply.status).toBe(401);
    expect(reply.body).not.toHaveProperty('code');
    expect(reply.body.detail).toContain(`${header} twice`);
  });

  it('refuses two admin keys on the admin API too', async () => {
    const reply = await send(h.url, '/__mock/clock', {
      authorization: `Bearer ${h.admin}`,
      'x-admin-key': ['k3y-0f-the-mock-0123456789', 'k3y-0f-the-mock-0123456789'],
    });
    expect(reply.status).toBe(401);
    expect(reply.body.detail).toContain('x-admin-key twice');
  });
});
