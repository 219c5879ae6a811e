import { describe, expect, it } from 'vitest';
import type { Change } from '../../store/change.js';
import { parseJobMember, replicationKeys } from '../keys.js';
import { apiKeyValueOf, decodeEntries, encodeChange } from '../log-entry.js';

/** A member of the `due` and `leases` sets as the replication scripts write it (../scripts.ts): org, newline, id. */
const jobMember = (org: string, notificationId: string) => `${org}\n${notificationId}`;

describe('log entries of a replicated mock', () => {
  it('round-trips a change through its entry as XRANGE answers it, keeping the order and the last id', () => {
    const changes: Change[] = [
      { org: 'o', entity: 'clock', id: 'offset', before: 0, after: 5000, at: 1 },
      { org: 'o', entity: 'subscription', id: 'sub_o_000001', before: null, after: null, at: 2 },
    ];
    const raw = changes.map((c, i) => [`1-${i}`, ['c', encodeChange(c, 'r1')]]);
    const { entries, last } = decodeEntries(raw);
    expect(entries).toEqual([
      { replica: 'r1', record: { entity: 'clock', id: 'offset', after: 5000 } },
      { replica: 'r1', record: { entity: 'subscription', id: 'sub_o_000001', after: null } },
    ]);
    expect(last).toBe('1-1');
  });

  it('reads nothing from an answer that is not a list of entries', () => {
    expect(decodeEntries(null)).toEqual({ entries: [], last: undefined });
    expect(decodeEntries([['1-0', 'not fields']])).toEqual({ entries: [], last: undefined });
  });

  it('names the key value of an API key write only', () => {
    const key = { apiKey: { key: 'opsk_x' } } as never;
    expect(apiKeyValueOf({ org: 'o', entity: 'apiKey', id: 'k', before: null, after: key, at: 0 })).toBe('opsk_x');
    expect(apiKeyValueOf({ org: 'o', entity: 'apiKey', id: 'k', before: key, after: null, at: 0 })).toBe('');
  });
});

describe('keys of a replicated mock', () => {
  it('keeps every key of one tenant in one Redis Cluster slot (the org as hash tag)', () => {
    const k = replicationKeys('p:');
    for (const key of [k.meta('acme'), k.log('acme'), k.lock('acme'), k.rate('acme'), k.jobs('acme')])
      expect(key).toMatch(/^p:t:\{acme\}:/);
  });

  it('reads back the org and notification id of a schedule member, refusing a foreign one', () => {
    expect(parseJobMember(jobMember('acme', 'ntf_1'))).toEqual({ org: 'acme', id: 'ntf_1' });
    expect(parseJobMember('no-separator')).toBeNull();
    expect(parseJobMember('\nntf_1')).toBeNull();
  });
});
