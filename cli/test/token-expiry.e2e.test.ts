import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { opsapi, stderrLines } from './run-cli.js';

/** `opsapi token --expires-in` takes what `t.token({expiresIn})` takes: a lifetime in seconds, negative included. */
describe('opsapi token --expires-in', () => {
  it.each([
    { given: '-60', lifetime: -60 },
    { given: '-1m', lifetime: -60 },
    { given: '90', lifetime: 90 },
    { given: '2h', lifetime: 7200 },
    { given: '1d', lifetime: 86_400 },
  ])('mints a token living $lifetime s for --expires-in $given', async ({ given, lifetime }) => {
    // `=`: the form a shell script writes a negative value in; the spaced form is below.
    const run = await opsapi(['token', `--expires-in=${given}`]);
    expect(run.code, run.stderr).toBe(0);
    const claims = decodeJwt(run.stdout.trim());
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(lifetime);
  });

  it('takes a negative value after a space too: an expired token on purpose', async () => {
    const run = await opsapi(['token', '--expires-in', '-60']);
    expect(run.code, run.stderr).toBe(0);
    const claims = decodeJwt(run.stdout.trim());
    expect(claims.exp).toBeLessThan(Date.now() / 1000);
  });

  it.each(['soon', '400d', '-400d'])('refuses %s: one line, exit 2', async (given) => {
    const run = await opsapi(['token', `--expires-in=${given}`]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(stderrLines(run)).toHaveLength(1);
    expect(run.stderr).toContain('expected a duration from -365d to 365d');
  });
});
