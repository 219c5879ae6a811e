import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClaims } from '../auth/presets.js';
import { freshOrg, injectHarness, type InjectHarness } from './harness.js';

interface Entry {
  id: number;
  path: string;
  query: Record<string, string | string[]>;
  queryString: string;
  headers: Record<string, string>;
  body: unknown;
  status: number;
  truncated?: string[];
}

/** The request journal of a tenant (`GET /__mock/requests`): bounded in entries and bytes, each entry bounded, credentials redacted. */
describe('the request journal', () => {
  let h: InjectHarness;
  const journal = async (token: string): Promise<Entry[]> => {
    const reply = await h.call('GET', '/__mock/requests', { token });
    expect(reply.status, reply.text).toBe(200);
    return reply.body.requests;
  };

  beforeAll(async () => {
    h = await injectHarness({ journalEntries: 5, journalKb: 64 });
  });
  afterAll(async () => h?.close());

  it('keeps the newest --journal-entries requests, every one of them recorded (never sampled)', async () => {
    const token = await h.token(adminClaims(freshOrg('entries')));
    for (let i = 0; i < 8; i++) await h.call('GET', `/v1/items/skus?pageSize=${i + 1}`, { token });
    const entries = await journal(token);
    expect(entries.map((e) => e.query.pageSize)).toEqual(['4', '5', '6', '7', '8']);
    expect(entries.map((e) => e.id)).toEqual([4, 5, 6, 7, 8]);
  });

  it('keeps an excerpt of invalid bodies as long as the operation reads, also of expired tokens, and drops the oldest beyond --journal-kb', async () => {
    const org = freshOrg('bodies');
    const token = await h.token(adminClaims(org));
    const expired = await h.token(adminClaims(org), -60);
    // Just under the 16 KiB createApiKey reads (mock/http/body-limits.ts): read whole, refused, journaled.
    const raw = `{"name": "${'x'.repeat(16_000)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const reply = await h.call('POST', '/v1/access/apiKeys', { token: i % 2 ? expired : token, raw });
      statuses.push(reply.status);
    }
    expect(new Set(statuses)).toEqual(new Set([400, 401]));
    const entries = await h.mock.control.tenant(org).requests();
    // 64 KB hold at most 7 entries of an 8 KB excerpt each (16 + 2 per character, plus the entry's own); the newest is there.
    expect(entries.length).toBeGreaterThanOrEqual(3);
    expect(entries.length).toBeLessThanOrEqual(7);
    expect(entries.at(-1)?.status).toBe(401);
    for (const entry of entries) {
      expect(entry.body).toBe(raw.slice(0, 4096));
      expect(entry.truncated).toEqual(['body']);
    }
    // A 1 MB body is the 413 before it is read: journaled with no more of it than an excerpt.
    const huge = await h.call('POST', '/v1/access/apiKeys', { token, raw: `{"name": "${'x'.repeat(1_000_000)}` });
    expect(huge.status).toBe(413);
    const last = (await h.mock.control.tenant(org).requests()).at(-1);
    expect(String(last?.body ?? '').length).toBeLessThanOrEqual(4096);
  });

  it('cuts a 15 KB header and a URL of a 250-term filter to their bounds, and says so', async () => {
    const token = await h.token(adminClaims(freshOrg('cuts')));
    const filter = Array.from({ length: 250 }, (_, i) => `name[Contains]term${i}`).join(' || ');
    const path = `/v1/items/skus?pageSize=1&filterBy=${encodeURIComponent(filter)}`;
    await h.call('GET', path, { token, headers: { 'x-padding': 'p'.repeat(15 * 1024) } });
    const [entry] = await journal(token);
    expect(entry?.truncated).toEqual(['url', 'headers']);
    expect(entry?.path).toBe('/v1/items/skus');
    expect(entry?.queryString.length).toBe(2048 - '/v1/items/skus?'.length);
    expect(entry?.query.pageSize).toBe('1');
    expect(path).toContain(entry?.queryString);
    expect(entry?.headers['x-padding']).toBe('p'.repeat(512));
    expect(Object.values(entry?.headers ?? {}).join('').length).toBeLessThanOrEqual(2048);
  });

  it('redacts Authorization, X-Api-Key, X-Admin-Key and X-Team-Key', async () => {
    const token = await h.token(adminClaims(freshOrg('redact')));
    const secrets = { 'x-admin-key': 'admin-key-0123456789abcdef', 'x-team-key': 'team-key-0123456789abcdef' };
    await h.call('GET', '/v1/items/skus?pageSize=1', { token, headers: secrets });
    const reply = await h.call('GET', '/__mock/requests', { token });
    const [entry] = reply.body.requests as Entry[];
    expect(entry?.headers).toMatchObject({
      authorization: '[redacted]',
      'x-admin-key': '[redacted]',
      'x-team-key': '[redacted]',
    });
    expect(reply.text).not.toContain(secrets['x-admin-key']);
    expect(reply.text).not.toContain(secrets['x-team-key']);
    expect(reply.text).not.toContain(token.split('.')[2]);
  });
});
