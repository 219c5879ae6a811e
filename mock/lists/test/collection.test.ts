import { describe, expect, it } from 'vitest';
import { ListCollection } from '../collection.js';
import { runList } from '../engine.js';
import type { ListQuery } from '../query.js';
import { ASSETS, FIELDS, type Asset } from './fixtures.js';

function ids(collection: ListCollection<Asset>, query: ListQuery): string[] {
  const result = runList(collection, FIELDS, { pageSize: 1000, ...query });
  if (!result.ok) throw new Error(result.error.detail);
  return result.value.results.map((a) => a.id);
}

function total(collection: ListCollection<Asset>, query: ListQuery): number {
  const result = runList(collection, FIELDS, query);
  if (!result.ok) throw new Error(result.error.detail);
  return result.value.totalCount;
}

const asset = (id: string, patch: Partial<Asset> = {}): Asset => ({ ...ASSETS[0]!, id, ...patch });

describe('ListCollection', () => {
  it('stores, replaces and deletes items by id', () => {
    const c = new ListCollection<Asset>();
    expect(c.size).toBe(0);
    c.set(asset('x'));
    c.set(asset('y'));
    expect(c.size).toBe(2);
    expect(c.get('x')?.id).toBe('x');
    expect(c.has('y')).toBe(true);
    const replacement = asset('x', { name: 'renamed' });
    c.set(replacement);
    expect(c.size).toBe(2);
    expect(c.get('x')).toBe(replacement);
    expect(c.delete('x')).toBe(true);
    expect(c.delete('x')).toBe(false);
    expect(c.get('x')).toBeUndefined();
    expect(c.size).toBe(1);
  });

  it('iterates in insertion order, a replaced item keeping its place', () => {
    const c = new ListCollection([asset('m'), asset('a'), asset('z')]);
    c.set(asset('a', { name: 'again' }));
    c.set(asset('b'));
    expect([...c.values()].map((a) => a.id)).toEqual(['m', 'a', 'z', 'b']);
    expect([...c].map((a) => a.name)).toEqual(['Alpha Pump', 'again', 'Alpha Pump', 'Alpha Pump']);
  });

  it('bumps version on every mutation', () => {
    const c = new ListCollection(ASSETS);
    const v0 = c.version;
    c.set(asset('n'));
    const v1 = c.version;
    c.delete('n');
    const v2 = c.version;
    c.replaceAll([]);
    expect([v0 < v1, v1 < v2, v2 < c.version]).toEqual([true, true, true]);
    c.delete('missing');
    expect(c.version).toBe(v2 + 1);
  });

  it('reflects an insert in cached sorted and filtered results', () => {
    const c = new ListCollection(ASSETS);
    expect(ids(c, { sortBy: '-name', filterBy: 'name[Contains]a' })).toEqual(['d', 'b', 'c', 'a']);
    c.set(asset('f', { name: 'omega' }));
    expect(ids(c, { sortBy: '-name', filterBy: 'name[Contains]a' })).toEqual(['f', 'd', 'b', 'c', 'a']);
    expect(ids(c, { sortBy: '-name' })).toEqual(['e', 'f', 'd', 'b', 'c', 'a']);
    expect(total(c, {})).toBe(6);
  });

  it('reflects a replacement that changes the sort key and the filter outcome', () => {
    const c = new ListCollection(ASSETS);
    expect(ids(c, { sortBy: 'count' })).toEqual(['d', 'b', 'c', 'a', 'e']);
    expect(ids(c, { filterBy: 'count[Gt]5', sortBy: 'count' })).toEqual(['a', 'e']);
    c.set({ ...ASSETS[1]!, count: 99 });
    expect(ids(c, { sortBy: 'count' })).toEqual(['d', 'c', 'a', 'b', 'e']);
    expect(ids(c, { filterBy: 'count[Gt]5', sortBy: 'count' })).toEqual(['a', 'b', 'e']);
    expect(ids(c, { filterBy: 'count[Gt]5', sortBy: '-count' })).toEqual(['e', 'b', 'a']);
  });

  it('reflects an item changed in place once it is set again', () => {
    const items = ASSETS.map((a) => ({ ...a }));
    const c = new ListCollection(items);
    expect(ids(c, { sortBy: 'name', filterBy: 'name[StartsWith]z' })).toEqual([]);
    const b = items[1]!;
    b.name = 'Zulu';
    c.set(b);
    expect(ids(c, { sortBy: 'name', filterBy: 'name[StartsWith]z' })).toEqual(['b']);
    expect(ids(c, { sortBy: 'name' })).toEqual(['a', 'c', 'b', 'd', 'e']);
  });

  it('reflects a delete in cached results and does not match the freed slot', () => {
    const c = new ListCollection(ASSETS);
    expect(total(c, { filterBy: 'lastModifiedAt[IsNull]', sortBy: '-createdAt' })).toBe(2);
    expect(total(c, { filterBy: 'count[IsNull]' })).toBe(1);
    c.delete('b');
    c.delete('d');
    expect(total(c, { filterBy: 'lastModifiedAt[IsNull]', sortBy: '-createdAt' })).toBe(0);
    expect(total(c, { filterBy: 'count[IsNull]' })).toBe(0);
    expect(ids(c, { sortBy: '-createdAt' })).toEqual(['c', 'a', 'e']);
    expect(ids(c, {})).toEqual(['a', 'c', 'e']);
  });

  it('reuses freed slots correctly', () => {
    const c = new ListCollection(ASSETS);
    expect(ids(c, { sortBy: 'name' })).toEqual(['a', 'c', 'b', 'd', 'e']);
    c.delete('a');
    c.set(asset('aa', { name: 'aardvark', count: null }));
    expect(ids(c, { sortBy: 'name' })).toEqual(['c', 'aa', 'b', 'd', 'e']);
    expect(ids(c, { filterBy: 'count[IsNull]' })).toEqual(['aa', 'd']);
    expect([...c.values()].map((a) => a.id)).toEqual(['b', 'c', 'd', 'e', 'aa']);
  });

  it('drops everything on replaceAll and clear', () => {
    const c = new ListCollection(ASSETS);
    expect(ids(c, { sortBy: 'name', filterBy: 'name[Contains]a' })).toEqual(['a', 'c', 'b', 'd']);
    c.replaceAll([asset('q', { name: 'quartz' }), asset('p', { name: 'pearl' }), asset('q', { name: 'quasar' })]);
    expect(c.size).toBe(2);
    expect(ids(c, { sortBy: 'name', filterBy: 'name[Contains]a' })).toEqual(['p', 'q']);
    expect(c.get('q')?.name).toBe('quasar');
    c.clear();
    expect(c.size).toBe(0);
    expect(runList(c, FIELDS, {})).toEqual({
      ok: true,
      value: { results: [], pageNumber: 1, pageSize: 25, totalPages: 0, totalCount: 0 },
    });
  });

  it('returns the stored item objects themselves', () => {
    const c = new ListCollection(ASSETS);
    const result = runList(c, FIELDS, { filterBy: 'name[Equals]delta' });
    expect(result.ok && result.value.results[0]).toBe(ASSETS[3]);
  });

  it('rejects an item without a string id', () => {
    const c = new ListCollection<{ id: string }>();
    expect(() => c.set({ id: 1 } as unknown as { id: string })).toThrow(TypeError);
  });
});
