import { describe, expect, it } from 'vitest';
import { sideBySide } from './side-by-side.js';

/** The ids of a page, in order. */
function ids(reply: { body: { results: { id: string }[] } }): string[] {
  return reply.body.results.map((item) => item.id);
}

const ascending = (list: string[]) => [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const descending = (list: string[]) => ascending(list).reverse();

describe('default-order decisions (the order of a list without sortBy, which the reference does not give)', () => {
  const mocks = sideBySide({ 'default-order:listSkus': '-id', 'default-order:searchFamilies': '-id' });

  it('without decisions, lists SKUs by id ascending', async () => {
    const page = ids(await mocks.inferred.call('GET', '/v1/items/skus?pageSize=20', { op: 'listSkus' }));
    expect(page.length).toBeGreaterThan(1);
    expect(page).toEqual(ascending(page));
  });

  it('with the decision -id, lists SKUs by id descending', async () => {
    const page = ids(await mocks.observed.call('GET', '/v1/items/skus?pageSize=20', { op: 'listSkus' }));
    expect(page.length).toBeGreaterThan(1);
    expect(page).toEqual(descending(page));
  });

  it('with the decision -id, searches families (parameters in the body) by id descending', async () => {
    const page = ids(
      await mocks.observed.call('POST', '/v1/items/families/search', { body: {}, op: 'searchFamilies' }),
    );
    expect(page.length).toBeGreaterThan(1);
    expect(page).toEqual(descending(page));
  });

  it('with the decision, keeps an order the client asks for, and an empty sortBy means the adopted default', async () => {
    const asked = ids(await mocks.observed.call('GET', '/v1/items/skus?pageSize=20&sortBy=id', { op: 'listSkus' }));
    expect(asked).toEqual(ascending(asked));
    const empty = ids(await mocks.observed.call('GET', '/v1/items/skus?pageSize=20&sortBy=', { op: 'listSkus' }));
    expect(empty).toEqual(descending(empty));
  });

  it('with the decision for SKUs only, leaves the other lists in the inferred order', async () => {
    const page = ids(await mocks.observed.call('GET', '/v1/maintenance/assets?pageSize=20', { op: 'listAssets' }));
    expect(page).toEqual(ascending(page));
  });
});
