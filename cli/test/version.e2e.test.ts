import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshOrg, startHarness, type Harness } from '../../mock/test/harness.js';
import { adminClaims } from '../../mock/auth/presets.js';
import { ROOT, opsapi } from './run-cli.js';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('opsapi --version', () => {
  it.each([['--version'], ['-V']])('prints the version of the tool for %s and exits 0', async (flag) => {
    const run = await opsapi([flag]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${VERSION}\n`);
  });

  it('is not read after a command name: a command without its own --version calls it unknown (exit 2)', async () => {
    const run = await opsapi(['token', '--version']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown option '--version'/);
    expect(run.stdout).toBe('');
  });
});

describe('opsapi trigger <event> --version <n>', () => {
  let h: Harness;
  let org: string;
  let token: string;

  beforeAll(async () => {
    h = await startHarness();
    org = freshOrg('trigger');
    token = await h.token(adminClaims(org));
    // One subscription per version of the event; the endpoint refuses connections, which does not matter here.
    for (const eventVersion of [1, 2]) {
      const reply = await h.call('POST', '/v1/notifications/webhook/subscriptions', {
        token,
        body: { endpoint: 'http://127.0.0.1:1/hook', eventName: 'Items.Sku.Created', eventVersion },
      });
      expect(reply.status, reply.text).toBe(201);
    }
  });

  afterAll(async () => {
    await h?.close();
  });

  /** Triggers the event and answers the versions of the notifications it created. */
  async function trigger(extra: string[]): Promise<{ code: number | null; stdout: string; versions: number[] }> {
    const run = await opsapi(['trigger', 'Items.Sku.Created', '--base-url', h.url, '--org', org, '--json', ...extra]);
    if (run.code !== 0) return { code: run.code, stdout: run.stdout, versions: [] };
    const answer = JSON.parse(run.stdout) as { notifications: string[] };
    const versions: number[] = [];
    for (const id of answer.notifications)
      versions.push((await h.call('GET', `/v1/notifications/webhook/${id}`, { token })).body.eventVersion as number);
    return { code: run.code, stdout: run.stdout, versions: versions.sort() };
  }

  it('emits version 1 of the event, not the version of the tool', async () => {
    const result = await trigger(['--version', '1']);
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).not.toBe(`${VERSION}\n`);
    expect(result.versions).toEqual([1]);
  });

  it('emits version 2 when asked for it', async () => {
    expect((await trigger(['--version', '2'])).versions).toEqual([2]);
  });

  it('emits every subscribed version without --version', async () => {
    expect((await trigger([])).versions).toEqual([1, 2]);
  });
});
