import { describe, expect, it } from 'vitest';
import { ListCollection } from '../collection.js';
import { runList } from '../engine.js';
import type { ListEngineOptions } from '../engine-options.js';
import { ASSETS, FIELDS, type Asset } from './fixtures.js';

const SENSITIVE: ListEngineOptions = { textCase: 'sensitive', equalsCase: 'sensitive' };
const EQUALS_INSENSITIVE: ListEngineOptions = { textCase: 'insensitive', equalsCase: 'insensitive' };

/** The ids a filter selects, in the default order. */
function ids(source: ListCollection<Asset> | Asset[], filterBy: string, engine?: ListEngineOptions): string[] {
  const result = runList(source, FIELDS, { pageSize: 1000, filterBy }, engine);
  if (!result.ok) throw new Error(result.error.detail);
  return result.value.results.map((a) => a.id);
}

describe.each([
  ['an indexed collection', () => new ListCollection<Asset>(ASSETS)],
  ['a plain array', () => [...ASSETS]],
])('the list engine option textCase, over %s', (_, source) => {
  it('compares text operators regardless of case by default', () => {
    const s = source();
    expect(ids(s, 'name[Contains]pump')).toEqual(ids(s, 'name[Contains]PUMP'));
    expect(ids(s, 'name[Contains]pump').length).toBeGreaterThan(0);
  });

  it('compares them as written when sensitive, the same text cached apart from the insensitive one', () => {
    const s = source();
    const insensitive = ids(s, 'name[Contains]pump');
    expect(ids(s, 'name[Contains]Pump', SENSITIVE)).toEqual(insensitive);
    expect(ids(s, 'name[Contains]pump', SENSITIVE)).toEqual([]);
    expect(ids(s, 'name[StartsWith]alpha', SENSITIVE)).toEqual([]);
    expect(ids(s, 'name[StartsWith]Alpha', SENSITIVE)).toEqual(ids(s, 'name[StartsWith]alpha'));
    expect(ids(s, 'name[EndsWith]PUMP', SENSITIVE)).toEqual([]);
    // The insensitive answer of the same text is still the insensitive one.
    expect(ids(s, 'name[Contains]pump')).toEqual(insensitive);
  });

  it('compares Equals on text regardless of case with equalsCase insensitive, and leaves other fields as they were', () => {
    const s = source();
    const exact = ids(s, 'name[Equals]Alpha Pump');
    expect(exact.length).toBeGreaterThan(0);
    expect(ids(s, 'name[Equals]alpha pump')).toEqual([]);
    expect(ids(s, 'name[Equals]alpha pump', EQUALS_INSENSITIVE)).toEqual(exact);
    expect(ids(s, 'name[Equals]ALPHA PUMP', EQUALS_INSENSITIVE)).toEqual(exact);
    // The exact answer of the same text is still the exact one.
    expect(ids(s, 'name[Equals]alpha pump')).toEqual([]);
    for (const filterBy of ['count[Gt]1', 'status[Equals]Open', 'name[Contains]pump'])
      expect(ids(s, filterBy, EQUALS_INSENSITIVE), filterBy).toEqual(ids(s, filterBy));
  });

  it('leaves every other operator as it was', () => {
    const s = source();
    for (const filterBy of ['name[Equals]Alpha Pump', 'count[Gt]1', 'description[IsNull]', 'status[Equals]Open'])
      expect(ids(s, filterBy, SENSITIVE), filterBy).toEqual(ids(s, filterBy));
  });
});
