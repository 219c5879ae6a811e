import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED } from '../../../fixtures/seed/index.js';
import { Store } from '../../store/store.js';
import type { ReadEntry } from '../log-entry.js';
import { applyEntries, laterId } from '../log-follower.js';

const FIXED = { now: () => Date.UTC(2026, 0, 1) };
const copyOf = () =>
  new Store({ seed: DEFAULT_SEED, skus: 5, maxTenants: 10, webhookKey: 'follower-test', clock: FIXED }).tenant('acme');
const clock = (replica: string, offset: number): ReadEntry => ({
  replica,
  record: { entity: 'clock', id: 'offset', after: offset },
});

describe("applying a tenant's log to a replica's copy", () => {
  it("skips the replica's own entries: its copy holds them already", () => {
    const copy = copyOf();
    applyEntries(copy, { entries: [clock('me', 5000)], last: '1-0' }, 'me', false);
    expect(copy.clock.offset).toBe(0);
  });

  it('applies every entry to a fresh copy, its own too', () => {
    const copy = copyOf();
    const last = applyEntries(copy, { entries: [clock('me', 5000)], last: '1-0' }, 'me', true);
    expect(copy.clock.offset).toBe(5000);
    expect(last).toEqual({ id: '1-0', keys: false });
  });

  it("re-applies an own entry that another replica's entry of the same entity preceded in the log", () => {
    const copy = copyOf();
    // Locally the own write came first; the log put the other replica's first: the copy must end with the own one.
    copy.clock.restore(7000);
    applyEntries(copy, { entries: [clock('other', 3000), clock('me', 7000)], last: '2-0' }, 'me', false);
    expect(copy.clock.offset).toBe(7000);
  });

  it('continues id sequences past the ids another replica created', () => {
    const copy = copyOf();
    const id = `sub_${copy.tag}_000041`;
    const after = { id, endpoint: 'https://example.test/h', eventName: 'E', eventVersion: 1 } as never;
    applyEntries(
      copy,
      { entries: [{ replica: 'other', record: { entity: 'subscription', id, after } }], last: '1-0' },
      'me',
      false,
    );
    expect(copy.ids.next('sub')).toBe(`sub_${copy.tag}_000042`);
  });
});

describe('stream ids', () => {
  it('orders by time then sequence, and treats none as earliest', () => {
    expect(laterId('5-1', '5-0')).toBe('5-1');
    expect(laterId('5-0', '10-0')).toBe('10-0');
    expect(laterId('', '1-0')).toBe('1-0');
    expect(laterId('1-0', undefined)).toBe('1-0');
  });
});
