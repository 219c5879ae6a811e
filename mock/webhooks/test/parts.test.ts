import { describe, expect, it } from 'vitest';
import { ExcerptHandler } from '../excerpt-handler.js';

/** Characters of a response body an attempt record keeps. */
const EXCERPT_CHARS = 1024;

/** The excerpt an attempt record keeps of a 200 answered with `body` in one chunk. */
function excerptOf(body: Buffer): string | null {
  let kept: string | null = null;
  const handler = new ExcerptHandler(
    (_errorKind, _status, excerpt) => {
      kept = excerpt;
    },
    () => 'ConnectionError',
  );
  const controller = { abort: () => undefined } as never;
  handler.onRequestStart(controller);
  handler.onResponseStart(controller, 200);
  handler.onResponseData(controller, body);
  handler.onResponseEnd();
  return kept;
}

describe('response excerpts', () => {
  it('keeps at most 1024 characters and never half a surrogate pair', () => {
    expect(excerptOf(Buffer.from('short'))).toBe('short');
    expect(excerptOf(Buffer.from('a'.repeat(5000)))).toHaveLength(EXCERPT_CHARS);
    const emoji = `${'a'.repeat(EXCERPT_CHARS - 1)}🍮tail`;
    const cut = excerptOf(Buffer.from(emoji, 'utf8'));
    expect(cut).toBe('a'.repeat(EXCERPT_CHARS - 1));
    // Bytes cut in the middle of a character decode to a replacement character, not an exception.
    expect(excerptOf(Buffer.from('é', 'utf8').subarray(0, 1))).toBe('\ufffd');
  });
});
