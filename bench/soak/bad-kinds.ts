import { enc, pick, type KindDef } from './kind-def.js';

/** The bad kinds: malformed or unauthorised requests that must get their 4xx. */
export const BAD_KINDS: Record<string, KindDef> = {
  'bad-json': {
    weight: 3,
    run: (tr, t) =>
      tr
        .send('bad-json', 'bad', [400], {
          method: 'PUT',
          path: `/v1/items/skus/${t.manifest.sku.reference}/stock`,
          token: t.token,
          raw: pick(['{broken', '{"stock":"many"}', '[]', '{"locationReference":"x","stock":-1}']),
        })
        .then(() => undefined),
  },
  'bad-filter': {
    weight: 3,
    run: (tr, t) =>
      tr
        .send('bad-filter', 'bad', [400], {
          method: 'GET',
          path: `/v1/items/skus?filterBy=${enc(pick(['name[Nope]x', 'nothing[Equals]1', '(name[Equals]a', 'totalStock[Gt]abc', 'name[Equals]a &&']))}`,
          token: t.token,
        })
        .then(() => undefined),
  },
  'bad-sort': {
    weight: 1,
    run: (tr, t) =>
      tr
        .send('bad-sort', 'bad', [400], {
          method: 'GET',
          path: `/v1/maintenance/assets?sortBy=${enc(pick(['unknown', 'name,,', '--name']))}`,
          token: t.token,
        })
        .then(() => undefined),
  },
  'bad-page': {
    weight: 1,
    run: (tr, t) =>
      tr
        .send('bad-page', 'bad', [400], {
          method: 'GET',
          path: `/v1/items/skus?pageSize=${pick(['0', '1001', '-1', 'abc', '1.5'])}`,
          token: t.token,
        })
        .then(() => undefined),
  },
  'unknown-route': {
    weight: 2,
    run: (tr, t) =>
      tr
        .send('unknown-route', 'bad', [404], {
          method: 'GET',
          path: pick(['/v1/nothing', '/v1/items/skus/', '/v2/items/skus', '/favicon.ico']),
          token: t.token,
        })
        .then(() => undefined),
  },
  'wrong-method': {
    weight: 1,
    run: (tr, t) =>
      tr
        .send('wrong-method', 'bad', [405], { method: 'PATCH', path: '/v1/items/skus', token: t.token })
        .then(() => undefined),
  },
  'missing-token': {
    weight: 2,
    run: (tr) =>
      tr.send('missing-token', 'bad', [401], { method: 'GET', path: '/v1/items/skus' }).then(() => undefined),
  },
  'forged-token': {
    weight: 2,
    run: (tr, t) =>
      tr
        .send('forged-token', 'bad', [401], {
          method: 'GET',
          path: '/v1/items/skus',
          token: `${t.token.slice(0, -4)}AAAA`,
        })
        .then(() => undefined),
  },
  'unknown-id': {
    weight: 1,
    run: (tr, t) =>
      tr
        .send('unknown-id', 'bad', [404], {
          method: 'GET',
          path: '/v1/notifications/webhook/ntf_nope_000001',
          token: t.token,
        })
        .then(() => undefined),
  },
};
