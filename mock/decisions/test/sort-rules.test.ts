import { describe, expect, it } from 'vitest';
import { notAdopted } from '../index.js';
import { decisionsOf } from '../../../spec/decisions/index.js';
import { decisionFile } from '../../../spec/decisions/test/decision-file.js';
import { sideBySide } from './side-by-side.js';

type Page = { body: { results: Record<string, unknown>[] } };

/** Where the nulls of a member are in a page: first, last, or both or none. */
function nullsAt(reply: Page, member: string): 'first' | 'last' | 'neither' {
  const values = reply.body.results.map((i) => i[member]);
  const isNull = (v: unknown) => v === null || v === undefined;
  if (!values.some(isNull) || values.every(isNull)) return 'neither';
  if (isNull(values[0]) && !isNull(values.at(-1))) return 'first';
  if (isNull(values.at(-1)) && !isNull(values[0])) return 'last';
  return 'neither';
}

describe('list rule decisions (Endpoints / List and search endpoints: nulls and unknown sort fields not stated)', () => {
  const mocks = sideBySide({
    'null-order': 'last',
    'unknown-sort-field': 'ignored',
    'default-order:listAssets': 'title',
  });

  it('sorts nulls first ascending without decisions, last ascending (first descending) with them', async () => {
    const path = '/v1/maintenance/assets?pageSize=1000&sortBy=';
    expect(nullsAt(await mocks.inferred.call('GET', `${path}parentId`), 'parentId')).toBe('first');
    expect(nullsAt(await mocks.observed.call('GET', `${path}parentId`, { op: 'listAssets' }), 'parentId')).toBe('last');
    expect(nullsAt(await mocks.observed.call('GET', `${path}-parentId`), 'parentId')).toBe('first');
  });

  it('refuses an unknown sort field without decisions, ignores it with them', async () => {
    const path = '/v1/items/skus?pageSize=5&sortBy=noSuchField';
    expect((await mocks.inferred.call('GET', path)).status).toBe(400);
    const reply = await mocks.observed.call('GET', path, { op: 'listSkus' });
    expect(reply.status).toBe(200);
    const ids = reply.body.results.map((i: { id: string }) => i.id);
    expect(ids).toEqual([...ids].sort());
  });

  it('keeps the known fields of a sortBy that also names an unknown one', async () => {
    const reply = await mocks.observed.call('GET', '/v1/items/skus?pageSize=20&sortBy=noSuchField,-id');
    const ids = reply.body.results.map((i: { id: string }) => i.id);
    expect(ids).toEqual([...ids].sort().reverse());
  });

  it('keeps its own order where the observed default order is a field it does not sort by', async () => {
    const reply = await mocks.observed.call('GET', '/v1/maintenance/assets?pageSize=20');
    const ids = reply.body.results.map((i: { id: string }) => i.id);
    expect(ids).toEqual([...ids].sort());
  });
});

describe('notAdopted: what a mock started with decisions says it does not take on', () => {
  it('lists the differing decisions that are no behaviour of the mock, one each with a reason', () => {
    const listed = notAdopted(
      decisionsOf(
        decisionFile({
          'catalog-texts': 'own',
          'record-fields:getTenantSelf': { fields: [{ name: 'displayName', types: ['string'], always: true }] },
          'default-order:listAssets': 'title',
          'default-order:listSkus': 'name',
          'null-order': 'last',
          'text-case': 'insensitive',
        }),
      ),
    );
    expect(listed.map((n) => n.id).sort()).toEqual([
      'catalog-texts',
      'default-order:listAssets',
      'record-fields:getTenantSelf',
    ]);
    for (const n of listed) expect(n.reason.length).toBeGreaterThan(10);
  });
});
