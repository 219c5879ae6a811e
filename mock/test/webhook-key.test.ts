import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adminClaims } from '../auth/presets.js';
import { DEFAULT_JWT_SECRET } from '../options.js';
import { sharedModeRefusal } from '../shared-mode.js';
import type { MockOptions } from '../options.js';
import { injectHarness } from './harness.js';

const OTHER_JWT_SECRET = 'another-jwt-secret-of-32-characters-or-more';
const A_WEBHOOK_KEY = 'a-webhook-key-of-the-shared-mock-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'opsapi-webhook-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The webhook secret of `org` on a mock built with these options, read through its admin API. */
async function secretOf(org: string, options: Partial<MockOptions> = {}): Promise<string> {
  const h = await injectHarness(options);
  try {
    const reply = await h.call('GET', '/__mock/webhook-secret', { token: await h.token(adminClaims(org)) });
    expect(reply.status).toBe(200);
    return reply.body.secret as string;
  } finally {
    await h.close();
  }
}

describe("tenants' webhook secrets", () => {
  it('keep on a loopback host the secret a local receiver always had (the published default key)', async () => {
    // The secret the default tenant had when secrets derived from the default JWT secret: a local receiver keeps it.
    expect(await secretOf('demo')).toBe('whsec_26dc7a868646787a538f7f5d3590e86e1730b77d');
  });

  it('derive from --webhook-key, never from the JWT secret', async () => {
    const org = 'webhook-key-org';
    const local = await secretOf(org);
    expect(await secretOf(org, { jwtSecret: OTHER_JWT_SECRET })).toBe(local);
    const keyed = await secretOf(org, { webhookKey: A_WEBHOOK_KEY });
    expect(keyed).not.toBe(local);
    expect(await secretOf(org, { webhookKey: A_WEBHOOK_KEY, jwtSecret: OTHER_JWT_SECRET })).toBe(keyed);
    expect(await secretOf('another-org', { webhookKey: A_WEBHOOK_KEY })).not.toBe(keyed);
  });

  it('derive on a non-loopback host without a key from a random one, never the published default', async () => {
    const shared = { host: '10.0.0.7', jwtSecret: OTHER_JWT_SECRET };
    const first = await secretOf('demo', shared);
    const second = await secretOf('demo', shared);
    expect(first).toMatch(/^whsec_[0-9a-f]{40}$/);
    expect(first).not.toBe(await secretOf('demo'));
    expect(second).not.toBe(first);
  });

  it('keep the random key of a non-loopback host with --state, readable by its owner only', async () => {
    const stateFile = join(dir, 'kept.state');
    const shared = { host: '0.0.0.0', jwtSecret: OTHER_JWT_SECRET, stateFile };
    const first = await secretOf('acme', shared);
    expect(await secretOf('acme', shared)).toBe(first);
    const kept = `${stateFile}.webhook-key`;
    expect(readFileSync(kept, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(kept).mode & 0o777).toBe(0o600);
    // A key given on the command line wins over the kept one.
    expect(await secretOf('acme', { ...shared, webhookKey: A_WEBHOOK_KEY })).toBe(
      await secretOf('acme', { webhookKey: A_WEBHOOK_KEY }),
    );
  });

  it('refuse a kept key file that holds no key, naming the file', async () => {
    const stateFile = join(dir, 'mangled.state');
    writeFileSync(`${stateFile}.webhook-key`, 'short\n');
    const built = injectHarness({ host: '0.0.0.0', jwtSecret: OTHER_JWT_SECRET, stateFile });
    await expect(built).rejects.toThrow(/mangled\.state\.webhook-key holds no webhook key of 32\+ characters/);
    await expect(built).rejects.toMatchObject({ name: 'StateFileError' });
  });
});

describe('the strength of the secrets of a mock others reach', () => {
  const on = (host: string, extra: Partial<Parameters<typeof sharedModeRefusal>[0]> = {}) =>
    sharedModeRefusal({ host, jwtSecret: OTHER_JWT_SECRET, admin: false, adminKey: null, ...extra });

  it('refuses a JWT secret under 32 characters off loopback, naming the flag and never the secret', () => {
    const refusal = on('0.0.0.0', { jwtSecret: 'x'.repeat(31) });
    expect(refusal).toMatch(/^refusing --host 0\.0\.0\.0 with a --jwt-secret of 31 characters: .*at least 32/);
    expect(refusal).not.toContain('x'.repeat(31));
    expect(on('0.0.0.0', { jwtSecret: 'x'.repeat(32) })).toBeNull();
    expect(on('0.0.0.0', { jwtSecret: 'x' })).toMatch(/--jwt-secret of 1 characters/);
  });

  it('lets a loopback mock keep any JWT secret (the published default included)', () => {
    expect(on('127.0.0.1', { jwtSecret: 'x' })).toBeNull();
    expect(on('localhost', { jwtSecret: DEFAULT_JWT_SECRET })).toBeNull();
  });

  it('refuses a --webhook-key under 32 characters off loopback, and takes none (random) or a long one', () => {
    expect(on('10.0.0.7', { webhookKey: 'short-webhook-key' })).toMatch(
      /^refusing --host 10\.0\.0\.7 with a --webhook-key of 17 characters: .*at least 32/,
    );
    expect(on('10.0.0.7', { webhookKey: null })).toBeNull();
    expect(on('10.0.0.7', { webhookKey: A_WEBHOOK_KEY })).toBeNull();
    expect(on('127.0.0.1', { webhookKey: 'local' })).toBeNull();
  });
});
