import { describe, expect, it } from 'vitest';
import { listField } from '../../../spec/lists/fields.js';
import { ListCollection } from '../collection.js';
import { runList } from '../engine.js';

const FIELDS = [
  listField('id', 'string'),
  listField('name', 'string'),
  listField('createdAt', 'date'),
  listField('score', 'number'),
];
const WORDS = [
  'alpha',
  'bravo',
  'charlie',
  'delta',
  'echo',
  'foxtrot',
  'golf',
  'hotel',
  'india',
  'juliet',
  'kilo',
  'Lima',
];

function generate(count: number) {
  let seed = 7;
  const next = () => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) & 0x7fffffff;
    return seed;
  };
  return Array.from({ length: count }, (_, i) => ({
    id: `asset-${String(i).padStart(6, '0')}`,
    name: `${WORDS[next() % WORDS.length]} ${WORDS[next() % WORDS.length]} ${next() % 1000}`,
    createdAt: new Date(Date.UTC(2024, 0, 1) + (next() % 10_000_000) * 1000).toISOString(),
    score: next() % 500,
  }));
}

describe('large lists', () => {
  it('returns exact totals and the right first page for a Contains filter sorted by -name over 100,000 items', () => {
    const items = generate(100_000);
    const collection = new ListCollection(items);
    const expected = items
      .filter((i) => i.name.toLowerCase().includes('echo'))
      .sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : a.id < b.id ? -1 : 1));
    expect(expected.length).toBeGreaterThan(1000);

    const query = { filterBy: 'Name[Contains]ECHO', sortBy: '-name', pageSize: '25', pageNumber: '3' };
    const first = runList(collection, FIELDS, query);
    const again = runList(collection, FIELDS, query);
    for (const result of [first, again]) {
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.value.totalCount).toBe(expected.length);
      expect(result.value.totalPages).toBe(Math.ceil(expected.length / 25));
      expect(result.value.results.map((i) => i.id)).toEqual(expected.slice(50, 75).map((i) => i.id));
    }

    const victim = expected[0]!;
    collection.delete(victim.id);
    const afterDelete = runList(collection, FIELDS, { ...query, pageNumber: '1' });
    expect(afterDelete.ok && afterDelete.value.totalCount).toBe(expected.length - 1);
    expect(afterDelete.ok && afterDelete.value.results[0]?.id).toBe(expected[1]!.id);
  });
});
