import { enc, pick, type KindDef } from './kind-def.js';

const SKU_FILTERS = [
  'status[Equals]Active',
  'name[Contains]a',
  'totalStock[Gt]10',
  'createdAt[IsAfter]2025-01-01',
  'familyId[IsNull]',
  '(status[Equals]Active && totalStock[Lte]100) || name[StartsWith]b',
  'isStockControlled[Equals]true',
];
const SKU_SORTS = ['name', '-totalStock', 'createdAt,-name', '-lastModifiedAt', 'reference'];
const ASSET_FILTERS = [
  'kind[Equals]Equipment',
  'status[Equals]Operational',
  'hoursInService[Gte]100',
  'parentId[IsNotNull]',
  'name[Contains]e',
];
const FAMILY_FILTERS = ['skuCount[Gt]0', 'name[Contains]a', 'description[IsNull]', 'createdAt[IsBefore]2026-01-01'];
const ERROR_CODES = [
  'COMMON.ENTITY.NOT_FOUND',
  'COMMON.VALIDATION.ERROR',
  'COMMON.QUERY.FILTER_PARSING_FAILED',
  'COMMON.RATE_LIMIT.EXCEEDED',
  'ITEMS.FAMILY.ALREADY_DELETED',
];

/** The read kinds: lists, searches and lookups that must answer 200. */
export const READ_KINDS: Record<string, KindDef> = {
  'list-skus': {
    weight: 10,
    run: (tr, t) =>
      tr
        .send('list-skus', 'read', [200], {
          method: 'GET',
          path: `/v1/items/skus?pageSize=${pick([5, 25, 100])}&filterBy=${enc(pick(SKU_FILTERS))}&sortBy=${enc(pick(SKU_SORTS))}`,
          token: t.token,
        })
        .then(() => undefined),
  },
  'list-assets': {
    weight: 4,
    run: (tr, t) =>
      tr
        .send('list-assets', 'read', [200], {
          method: 'GET',
          path: `/v1/maintenance/assets?filterBy=${enc(pick(ASSET_FILTERS))}&sortBy=-hoursInService`,
          token: t.token,
        })
        .then(() => undefined),
  },
  'search-families': {
    weight: 4,
    run: (tr, t) =>
      tr
        .send('search-families', 'read', [200], {
          method: 'POST',
          path: '/v1/items/families/search',
          token: t.token,
          body: { pageSize: 50, filterBy: pick(FAMILY_FILTERS), sortBy: '-skuCount' },
        })
        .then(() => undefined),
  },
  'list-events': {
    weight: 3,
    run: (tr, t) =>
      tr
        .send('list-events', 'read', [200], {
          method: 'GET',
          path: `/v1/notifications/events?filterBy=${enc(pick(['family[Equals]Warehouse', 'isDeprecated[Equals]false', 'eventName[StartsWith]Items']))}`,
          token: t.token,
        })
        .then(() => undefined),
  },
  'event-versions': {
    weight: 2,
    run: (tr, t) =>
      tr
        .send('event-versions', 'read', [200], {
          method: 'GET',
          path: '/v1/notifications/events/versions',
          token: t.token,
        })
        .then(() => undefined),
  },
  'error-catalog': {
    weight: 3,
    run: (tr, t) =>
      tr
        .send('error-catalog', 'read', [200], {
          method: 'GET',
          path: `/v1/errors/${pick(ERROR_CODES)}`,
          token: t.token,
        })
        .then(() => undefined),
  },
  'tenant-self': {
    weight: 3,
    run: (tr, t) =>
      tr
        .send('tenant-self', 'read', [200], { method: 'GET', path: '/v1/admin/tenants/self', token: t.token })
        .then(() => undefined),
  },
  'list-notifications': {
    weight: 4,
    run: (tr, t) =>
      tr
        .send('list-notifications', 'read', [200], {
          method: 'GET',
          path: `/v1/notifications/webhook?filterBy=${enc(pick(['status[Equals]Success', 'eventName[Equals]Warehouse.Stock.Updated', 'attemptCount[Gte]1']))}&sortBy=-createdAt`,
          token: t.token,
        })
        .then(() => undefined),
  },
  'get-notification': {
    weight: 3,
    run: (tr, t) =>
      tr
        .send('get-notification', 'read', [200], {
          method: 'GET',
          path: `/v1/notifications/webhook/${pick(t.notificationIds)}`,
          token: t.token,
        })
        .then(() => undefined),
  },
  'list-attempts': {
    weight: 3,
    run: (tr, t) =>
      tr
        .send('list-attempts', 'read', [200], {
          method: 'GET',
          path: `/v1/notifications/webhook/${pick(t.notificationIds)}/attempts?sortBy=-number`,
          token: t.token,
        })
        .then(() => undefined),
  },
  'list-subscriptions': {
    weight: 3,
    run: (tr, t) =>
      tr
        .send('list-subscriptions', 'read', [200], {
          method: 'GET',
          path: '/v1/notifications/webhook/subscriptions?sortBy=createdAt',
          token: t.token,
        })
        .then(() => undefined),
  },
};
