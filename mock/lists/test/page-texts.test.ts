import { describe, expect, it } from 'vitest';
import { ListCollection } from '../collection.js';
import { PageTexts, pageKey } from '../page-texts.js';

/** The bounds of the kept pages (mock/lists/page-texts.ts): pages per list, and bytes of one page. */
const PAGES_PER_LIST = 64;
const MAX_PAGE_TEXT_BYTES = 128 * 1024;

const text = (s: string) => Buffer.from(s);
const list = () => new ListCollection([{ id: 'a' }, { id: 'b' }]);

/** Two requests of the same page, each answered and offered to keep (a page asked for once is not kept). */
function askedTwice(pages: PageTexts, items: ListCollection<{ id: string }>, key: string, page: Buffer): void {
  pages.keeper(items, key)(page);
  pages.keeper(items, key)(page);
}

describe('pageKey', () => {
  it('tells the JSON types of the parameters apart', () => {
    const asText = pageKey('listSkus', 'iS', { pageSize: '2' });
    const asNumber = pageKey('listSkus', 'iS', { pageSize: 2 });
    expect(asText).not.toBe(asNumber);
    expect(pageKey('listSkus', 'iS', {})).not.toBe(pageKey('listSkus', 'iS', { filterBy: '' }));
  });

  it('tells operations and case modes apart', () => {
    expect(pageKey('listSkus', 'iS', {})).not.toBe(pageKey('listAssets', 'iS', {}));
    expect(pageKey('listSkus', 'iS', {})).not.toBe(pageKey('listSkus', 'Si', {}));
  });

  it('gives no key for a repeated or structured parameter', () => {
    expect(pageKey('listSkus', 'iS', { pageSize: ['1', '2'] as unknown as string })).toBeUndefined();
    expect(pageKey('listSkus', 'iS', { filterBy: {} as unknown as string })).toBeUndefined();
  });
});

describe('PageTexts', () => {
  it('gives back a kept page while its list is unchanged, and nothing once the list changed', () => {
    const pages = new PageTexts(1024 * 1024);
    const items = list();
    askedTwice(pages, items, 'k', text('page'));
    expect(pages.get(items, 'k')?.toString()).toBe('page');
    items.set({ id: 'c' });
    expect(pages.get(items, 'k')).toBeUndefined();
    expect(pages.figures().entries).toBe(0);
  });

  it('keeps a page from its second request on, counting the first as refused', () => {
    const pages = new PageTexts(1024 * 1024);
    const items = list();
    pages.keeper(items, 'k')(text('page'));
    expect(pages.get(items, 'k')).toBeUndefined();
    expect(pages.figures()).toMatchObject({ entries: 0, refused: 1 });
    pages.keeper(items, 'k')(text('page'));
    expect(pages.get(items, 'k')?.toString()).toBe('page');
    expect(pages.figures()).toMatchObject({ entries: 1, refused: 1 });
  });

  it('does not keep a page computed before a write that came before it was written', () => {
    const pages = new PageTexts(1024 * 1024);
    const items = list();
    pages.keeper(items, 'k')(text('first answer'));
    const keep = pages.keeper(items, 'k');
    items.delete('a');
    keep(text('stale page'));
    expect(pages.get(items, 'k')).toBeUndefined();
  });

  it('keeps the pages of each list apart', () => {
    const pages = new PageTexts(1024 * 1024);
    const one = list();
    const two = list();
    askedTwice(pages, one, 'k', text('one'));
    expect(pages.get(one, 'k')).toBeDefined();
    expect(pages.get(two, 'k')).toBeUndefined();
  });

  it(`keeps no page over ${MAX_PAGE_TEXT_BYTES} bytes and at most ${PAGES_PER_LIST} pages per list`, () => {
    const pages = new PageTexts(64 * 1024 * 1024);
    const items = list();
    askedTwice(pages, items, 'big', Buffer.alloc(MAX_PAGE_TEXT_BYTES + 1));
    expect(pages.get(items, 'big')).toBeUndefined();
    for (let i = 0; i <= PAGES_PER_LIST; i++) askedTwice(pages, items, `k${i}`, text(String(i)));
    expect(pages.figures().entries).toBe(PAGES_PER_LIST);
    expect(pages.get(items, 'k0')).toBeUndefined();
    expect(pages.get(items, `k${PAGES_PER_LIST}`)?.toString()).toBe(String(PAGES_PER_LIST));
  });

  it('stays within its byte budget, the least recently used page of any list dropped first', () => {
    const pages = new PageTexts(40_000);
    const lists = [list(), list(), list(), list(), list()];
    for (const [i, items] of lists.entries()) askedTwice(pages, items, 'k', Buffer.alloc(9_000, i));
    expect(pages.figures().usedBytes).toBeLessThanOrEqual(40_000);
    expect(pages.get(lists[0]!, 'k')).toBeUndefined();
    expect(pages.get(lists[4]!, 'k')).toBeDefined();
  });
});
