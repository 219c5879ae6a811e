import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allChecks } from '../registry.js';
import { RESULT_FILE, prismMarkdown, runAgainstPrism } from '../peers/prism.js';

describe('the runner against Stoplight Prism (a stateless mock of the same contract)', () => {
  it('completes without crashing and fails documented behaviour (exit 1)', async () => {
    const report = await runAgainstPrism();
    expect(report.checks.length).toBe(allChecks().length);
    expect(report.checks.filter((c) => c.outcome === 'error')).toEqual([]);
    expect(report.exitCode).toBe(1);
    expect(report.certified).toBe(false);
    const failedMust = report.checks.filter((c) => c.level === 'MUST' && c.outcome === 'fail').map((c) => c.id);
    expect(failedMust).toContain('auth.401-no-code');
    // The summary is computed here and compared loosely with the committed file; only the script rewrites it.
    const markdown = prismMarkdown(report);
    expect(markdown).toContain('Do not edit by hand');
    expect(existsSync(RESULT_FILE)).toBe(true);
    const committed = readFileSync(RESULT_FILE, 'utf8');
    expect(committed).toContain('Do not edit by hand');
    for (const id of failedMust)
      expect(
        committed,
        `${id} failed against Prism but is not in prism-result.md (run npx tsx conformance/peers/prism.ts --write)`,
      ).toContain(`\`${id}\``);
  }, 120_000);
});
