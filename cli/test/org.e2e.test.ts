import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOrgName } from '../../mock/auth/org.js';
import { mintToken, TokenVerifier } from '../../mock/auth/tokens.js';
import { DEFAULT_JWT_SECRET } from '../../mock/options.js';
import { startHarness, type Harness } from '../../mock/test/harness.js';
import { opsapi, stderrLines } from './run-cli.js';

describe('opsapi token --org', () => {
  it.each([
    { what: 'an empty org', args: ['--org', ''] },
    { what: 'an org with a slash and a space', args: ['--org', 'a/b c'] },
    { what: 'an org starting with a dot', args: ['--org', '.hidden'] },
    { what: 'an org of 65 characters', args: ['--org', 'a'.repeat(65)] },
  ])('refuses $what at once: one line, exit 2, no token', async ({ args }) => {
    const run = await opsapi(['token', ...args]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(stderrLines(run)).toHaveLength(1);
    expect(run.stderr).toMatch(/--org .* is invalid\. an org is 1 to 64 letters, digits/);
    expect(run.stderr).not.toContain('    at ');
  });

  it('refuses a bad org from OPSAPI_ORG too', async () => {
    const run = await opsapi(['token'], { env: { OPSAPI_ORG: 'a b' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/from env 'OPSAPI_ORG' is invalid/);
  });

  it.each([
    { name: 'trigger', command: ['trigger', 'Items.Sku.Created'] },
    { name: 'listen', command: ['listen'] },
  ])('is refused the same way by opsapi $name before it calls anything', async ({ command }) => {
    const run = await opsapi([...command, '--org', 'a/b c', '--base-url', 'http://127.0.0.1:9']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--org .* is invalid/);
    expect(run.stderr).not.toMatch(/cannot reach/);
  });
});

describe('a token the CLI mints', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  it('is accepted by the mock for an org of every allowed character', async () => {
    const run = await opsapi(['token', '--org', 'Acme-1.b_c', '--admin']);
    expect(run.code, run.stderr).toBe(0);
    const reply = await h.call('GET', '/v1/admin/tenants/self', { token: run.stdout.trim(), op: 'getTenantSelf' });
    expect(reply.status).toBe(200);
  });

  it('is minted exactly for the orgs whose tokens the mock accepts (one rule, any string)', async () => {
    const verifier = new TokenVerifier(DEFAULT_JWT_SECRET);
    const orgs = fc.oneof(fc.string({ maxLength: 70 }), fc.stringMatching(/^[A-Za-z0-9._/ -]{0,66}$/));
    await fc.assert(
      fc.asyncProperty(orgs, async (org) => {
        const token = await mintToken(DEFAULT_JWT_SECRET, { org }, 60);
        const verified = await verifier.verify(token, Date.now());
        expect(checkOrgName(org).ok, JSON.stringify(org)).toBe(verified.ok);
      }),
      { numRuns: 300 },
    );
  });
});
