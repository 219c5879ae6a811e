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
