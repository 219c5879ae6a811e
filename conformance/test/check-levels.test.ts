import { describe, expect, it } from 'vitest';
import { checkFacts } from '../contract/check-facts.js';
import { contract } from '../contract/contract.js';
import { levelOfFacts } from '../contract/facts.js';
import { allChecks } from '../orchestration/registry.js';

/**
 * The level of every check is derived from the provenance of the contract facts it rests on: MUST when they are all
 * documented, SHOULD when one is inferred. Relabelling a fact in the contract moves every check resting on it.
 */
describe('check levels come from the contract', () => {
  const document = contract().document;

  it('every check names facts of the contract, each with a provenance', () => {
    const facts = checkFacts(document);
    const checks = allChecks();
    for (const check of checks) {
      const rests = facts[check.id];
      expect(rests, check.id).toBeDefined();
      expect(rests?.length, check.id).toBeGreaterThan(0);
      for (const fact of rests ?? []) expect(() => levelOfFacts(document, [fact]), `${check.id} ${fact}`).not.toThrow();
    }
    // No stale entry: every fact list belongs to a check or to an exchange rule of the proxy.
    const ids = new Set(checks.map((c) => c.id));
    const stale = Object.keys(facts).filter((id) => !ids.has(id) && id !== 'filters.unknown-column.inferred');
    expect(stale).toEqual([]);
  });

  it('a MUST check rests only on documented facts, a SHOULD check on at least one inferred fact', () => {
    const facts = checkFacts(document);
    for (const check of allChecks()) {
      // The level of one fact alone: MUST when it is documented, SHOULD when it is inferred.
      const levels = (facts[check.id] ?? []).map((f) => levelOfFacts(document, [f]));
      if (check.level === 'MUST')
        expect(
          levels.every((l) => l === 'MUST'),
          check.id,
        ).toBe(true);
      else
        expect(
          levels.some((l) => l === 'SHOULD'),
          check.id,
        ).toBe(true);
    }
  });

  it('relabelling one documented fact as inferred turns the checks resting on it into SHOULD, and no other', () => {
    const before = new Map(allChecks().map((c) => [c.id, c.level]));
    const flipped = structuredClone(document);
    const problem = flipped.components?.schemas?.Problem as { properties: Record<string, Record<string, unknown>> };
    const instance = problem.properties.instance!;
    expect(instance['x-provenance']).toBe('documented');
    instance['x-provenance'] = 'inferred';
    const after = new Map(allChecks(flipped).map((c) => [c.id, c.level]));
    const changed = [...before].filter(([id, level]) => after.get(id) !== level).map(([id]) => id);
    expect(changed.sort()).toEqual(['errors.problem-instance', 'errors.problem-shape']);
    expect(after.get('errors.problem-instance')).toBe('SHOULD');
  });

  it('relabelling the status of a documented pair moves the checks of that pair', () => {
    const flipped = structuredClone(document) as unknown as { 'x-error-catalog': Record<string, unknown>[] };
    const entry = flipped['x-error-catalog'].find((e) => e.code === 'COMMON.RATE_LIMIT.EXCEEDED');
    expect(entry?.['x-status-provenance']).toBe('documented');
    if (entry) entry['x-status-provenance'] = 'inferred';
    const levels = new Map(allChecks(flipped as never).map((c) => [c.id, c.level]));
    expect(levels.get('rate-limit.429')).toBe('SHOULD');
    expect(levels.get('rate-limit.parameters')).toBe('MUST');
  });
});
