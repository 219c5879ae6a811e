import { describe, expect, it } from 'vitest';
import { mintToken, TokenVerifier } from '../tokens.js';

const SECRET = 'a-secret-of-the-tests-long-enough-for-hs256';

/** A valid token as long as a team key can make one: 80 permissions of 200 characters (~21 KB once encoded). */
function longToken(i: number): Promise<string> {
  const permissions = Array.from({ length: 80 }, (_, k) => `Perm.${i}.${k}.${'p'.repeat(190)}`);
  return mintToken(SECRET, { org: `cache-${i}`, permissions });
}

describe('TokenVerifier, the cache of valid tokens', () => {
  it('is bounded by the characters of 10,000 tokens of ~600 characters by default', () => {
    expect(new TokenVerifier(SECRET).cacheFigures()).toMatchObject({ maxEntries: 10_000, maxChars: 8_000_000 });
  });

  it('keeps its characters within the bound however long the tokens, and still verifies a token it dropped', async () => {
    const verifier = new TokenVerifier(SECRET, { entries: 10_000, chars: 500_000 });
    const { maxChars } = verifier.cacheFigures();
    const first = await longToken(0);
    expect((await verifier.verify(first, Date.now())).ok).toBe(true);
    const size = first.length + 200;
    // Enough long tokens to pass the character bound twice over, each used once.
    const count = Math.ceil((2 * maxChars) / size);
    for (let i = 1; i <= count; i++) expect((await verifier.verify(await longToken(i), Date.now())).ok).toBe(true);
    const figures = verifier.cacheFigures();
    expect(figures.chars).toBeLessThanOrEqual(maxChars);
    expect(figures.entries).toBeLessThanOrEqual(Math.floor(maxChars / size));
    expect(figures.entries).toBeLessThan(figures.maxEntries);
    // The first token was dropped long ago: it is verified afresh, and cached again.
    expect((await verifier.verify(first, Date.now())).ok).toBe(true);
  });

  it('keeps at most its count of short tokens', async () => {
    const verifier = new TokenVerifier(SECRET, { entries: 50, chars: 8_000_000 });
    for (let i = 0; i < 120; i++) await verifier.verify(await mintToken(SECRET, { org: `short-${i}` }), Date.now());
    expect(verifier.cacheFigures()).toMatchObject({ entries: 50, maxEntries: 50 });
  });
});
