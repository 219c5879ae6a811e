import { createConfig, lint } from '@redocly/openapi-core';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CONTRACT = fileURLToPath(new URL('../openapi.json', import.meta.url));

describe('the contract document under Redocly', () => {
  it('has zero errors under the `recommended` ruleset (warnings are reported, not failed)', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lint({ ref: CONTRACT, config });
    const errors = problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`);
    expect(errors).toEqual([]);
  });
});
