/**
 * Every SHOULD check judges a point the reference leaves open, so `opsapi learn` must be able to learn it, or the
 * map must say why not (conformance/test/support/should-map.ts): a new SHOULD check without an entry fails here.
 */
import { describe, expect, it } from 'vitest';
import { decisionPoints } from '../../spec/decisions/index.js';
import { pointsOf, SHOULD_MAP } from './support/should-map.js';
import { PROBES, LAST_PROBE } from '../learn/probes.js';
import { allChecks } from '../orchestration/registry.js';

const should = allChecks().filter((c) => c.level === 'SHOULD');

describe('the SHOULD check -> decision point map', () => {
  it.each(should.map((c) => [c.id]))('maps %s to the points it compares, or says why none can be learned', (id) => {
    const entry = SHOULD_MAP[id];
    expect(entry, `${id}: add it to conformance/test/support/should-map.ts`).toBeDefined();
    if (entry && !Array.isArray(entry))
      expect((entry as { notLearnable: string }).notLearnable.length).toBeGreaterThan(40);
    else expect(pointsOf(entry as readonly string[]).length, id).toBeGreaterThan(0);
  });

  it('names only SHOULD checks of the registry', () => {
    const ids = new Set(should.map((c) => c.id));
    expect(Object.keys(SHOULD_MAP).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('names only decision points of the contract (an id, or a kind:* that matches some)', () => {
    for (const [check, entry] of Object.entries(SHOULD_MAP)) {
      if (!Array.isArray(entry)) continue;
      for (const id of entry as readonly string[]) {
        const matched = pointsOf([id]);
        expect(matched.length, `${check}: ${id}`).toBeGreaterThan(0);
        for (const point of matched) expect(decisionPoints().has(point), `${check}: ${point}`).toBe(true);
      }
    }
  });

  it('has a probe for every kind of point a check compares', () => {
    const probed = new Set([...PROBES, LAST_PROBE].flatMap((p) => p.points()).map((id) => id.split(':')[0]));
    // Kinds every answer shows are scanned rather than probed (conformance/learn/observations.ts).
    for (const kind of ['code-status', 'success-status', 'record-fields', 'list-form', 'problem-media-type'])
      probed.add(kind);
    const compared = Object.values(SHOULD_MAP)
      .filter((e): e is readonly string[] => Array.isArray(e))
      .flatMap((e) => pointsOf(e))
      .map((id) => id.split(':')[0]);
    expect([...new Set(compared)].filter((kind) => !probed.has(kind))).toEqual([]);
  });
});
