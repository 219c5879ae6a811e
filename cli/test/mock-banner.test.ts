import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultOptions, type MockOptions } from '../../mock/options.js';
import { startMock, type RunningMock } from '../../mock/server.js';
import { bannerLines, startupFacts } from '../commands/mock-announce.js';

const KEY = 'banner-admin-key-0123456789';

/** The banner `opsapi mock` prints for a mock started with these options. */
async function bannerOf(running: RunningMock, options: MockOptions): Promise<string> {
  return bannerLines(running, options, await startupFacts(running, options.jwtSecret)).join('\n');
}

describe('the start-up banner of a mock whose admin API is guarded by a key', () => {
  const options: MockOptions = { ...defaultOptions(), port: 0, adminKey: KEY };
  let running: RunningMock;

  beforeAll(async () => {
    running = await startMock(options);
  });

  afterAll(async () => {
    await running?.close();
  });

  it('says that every admin call but health needs X-Admin-Key', async () => {
    expect(await bannerOf(running, options)).toMatch(
      /admin key: +required: every \/__mock\/\* call but \/__mock\/health sends X-Admin-Key/,
    );
  });

  it('never prints the key itself', async () => {
    expect(await bannerOf(running, options)).not.toContain(KEY);
  });

  it('says nothing of a key when none is set', async () => {
    expect(await bannerOf(running, { ...options, adminKey: null })).not.toMatch(/admin key/);
  });
});

describe('the start-up banner of a mock on a non-loopback host', () => {
  const options: MockOptions = {
    ...defaultOptions(),
    host: '0.0.0.0',
    port: 0,
    jwtSecret: 'banner-jwt-secret-of-a-shared-mock-0123456789',
    adminKey: KEY,
  };
  let running: RunningMock;
  let banner: string;
  let facts: Awaited<ReturnType<typeof startupFacts>>;

  beforeAll(async () => {
    running = await startMock(options);
    facts = await startupFacts(running, options.jwtSecret);
    banner = bannerLines(running, options, facts).join('\n');
  });

  afterAll(async () => {
    await running?.close();
  });

  it('prints no token and no webhook secret (they land in logs others read)', () => {
    expect(banner).not.toContain(facts.adminToken);
    expect(banner).not.toContain(facts.limitedToken);
    expect(banner).not.toContain(facts.webhookSecret);
    expect(banner).not.toMatch(/eyJ|whsec_/);
    expect(banner).toMatch(
      /credentials: +none printed on a shared host; .*opsapi team create.*opsapi token --team-key/,
    );
  });

  it('names the address really bound, and where this machine reaches it', () => {
    const port = new URL(running.url).port;
    expect(banner.split('\n')[0]).toBe(
      `opsapi mock listening on http://0.0.0.0:${port} (every interface; from this machine: http://127.0.0.1:${port})`,
    );
  });

  it('still gives a harness (--print-json) the tokens and the secret', () => {
    expect(facts.adminToken).toMatch(/^eyJ/);
    expect(facts.webhookSecret).toMatch(/^whsec_[0-9a-f]{40}$/);
  });
});

describe('the start-up banner of a mock on loopback', () => {
  const options: MockOptions = { ...defaultOptions(), port: 0 };
  let running: RunningMock;

  beforeAll(async () => {
    running = await startMock(options);
  });

  afterAll(async () => {
    await running?.close();
  });

  it('prints the default tenant tokens and webhook secret (npm start is usable at once) at the address bound', async () => {
    const facts = await startupFacts(running, options.jwtSecret);
    const banner = bannerLines(running, options, facts).join('\n');
    expect(banner.split('\n')[0]).toBe(`opsapi mock listening on ${running.url}`);
    expect(banner).toContain(`admin token:    ${facts.adminToken}`);
    expect(banner).toContain(`webhook secret: ${facts.webhookSecret}`);
  });
});
