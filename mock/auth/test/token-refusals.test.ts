import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { adminClaims } from '../presets.js';
import { mintToken, TokenVerifier } from '../tokens.js';

const SECRET = 'a-secret-of-the-tests-long-enough-for-hs256';
const NOW_S = 1_900_000_000;
const at = (seconds: number) => seconds * 1000;

/** What a refused token is refused with, asked twice: the second answer may come from the remembered refusals. */
async function refusedTwice(verifier: TokenVerifier, token: string, nowMs: number): Promise<string[]> {
  const reasons: string[] = [];
  for (let i = 0; i < 2; i++) {
    const verified = await verifier.verify(token, nowMs);
    expect(verified.ok).toBe(false);
    if (!verified.ok) reasons.push(verified.reason);
  }
  return reasons;
}

describe('TokenVerifier, tokens refused again', () => {
  it('refuses an expired token again with the same reason, and verifies it afresh when the clock is set back', async () => {
    const verifier = new TokenVerifier(SECRET);
    const token = await mintToken(SECRET, adminClaims('refusals-exp'), 60, NOW_S);
    expect(await refusedTwice(verifier, token, at(NOW_S + 3600))).toEqual([
      'The access token has expired.',
      'The access token has expired.',
    ]);
    // Remembered only for the times after its expiry: at a time before it, the token is valid.
    const earlier = await verifier.verify(token, at(NOW_S + 10));
    expect(earlier.ok).toBe(true);
  });

  it('refuses a token signed with another secret again, and never lets it through', async () => {
    const verifier = new TokenVerifier(SECRET);
    const forged = await mintToken('another-secret-of-the-same-length-as-the-first', adminClaims('refusals-sig'));
    expect(await refusedTwice(verifier, forged, Date.now())).toEqual([
      'The access token is malformed or its signature is invalid.',
      'The access token is malformed or its signature is invalid.',
    ]);
    // The genuine token of the same org still verifies.
    expect((await verifier.verify(await mintToken(SECRET, adminClaims('refusals-sig')), Date.now())).ok).toBe(true);
  });

  it('does not remember a token that is not valid yet: it is accepted once its nbf has passed', async () => {
    const verifier = new TokenVerifier(SECRET);
    const token = await new SignJWT({ org: 'refusals-nbf', permissions: [], roles: [] })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setNotBefore(NOW_S + 600)
      .setExpirationTime(NOW_S + 3600)
      .sign(new TextEncoder().encode(SECRET));
    expect(await refusedTwice(verifier, token, at(NOW_S))).toEqual([
      'The access token is not valid: nbf claim check failed.',
      'The access token is not valid: nbf claim check failed.',
    ]);
    expect((await verifier.verify(token, at(NOW_S + 700))).ok).toBe(true);
  });
});
