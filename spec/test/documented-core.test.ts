import { describe, expect, it } from 'vitest';
import { committedDocument, committedValidator } from './load.js';

const doc = committedDocument() as Record<string, any>;
const validator = committedValidator();

/** Validation keywords that narrow a value beyond its type: on a documented node each needs its own provenance. */
const REFINEMENTS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'const',
  'enum',
];

/** Keywords of documented nodes that the reference itself states, where they are and the words that state them. */
const STATED: readonly [RegExp, string][] = [
  [/^#\/components\/schemas\/ErrorCode enum$/, 'Errors / Error code catalog: the codes are those listed'],
  [
    /^#\/components\/schemas\/(NotificationStatus|Notification\/properties\/status)\/anyOf\/\d const$/,
    'Resources / Webhook notification: "a status of `Pending`, `Success` or `Failure`"',
  ],
  [/^#\/components\/parameters\/PageNumber\/schema minimum$/, 'pageNumber: "greater than or equal to 1"'],
  [/^#\/components\/parameters\/PageSize\/schema (minimum|maximum)$/, 'pageSize: "between 1 and 1000 inclusive"'],
  [/^#\/components\/schemas\/ListBody\/properties\/pageNumber minimum$/, 'pageNumber: "greater than or equal to 1"'],
  [/^#\/components\/schemas\/ListBody\/properties\/pageSize (minimum|maximum)$/, 'pageSize: "between 1 and 1000"'],
  [
    /^#\/webhooks\/[^/]+\/post\/parameters\/0\/schema pattern$/,
    'X-HMAC-Signature: "64 lowercase hexadecimal characters"',
  ],
];

/** Keys under which a schema (or a parameter's schema) holds sub-schemas that inherit its provenance. */
function* children(node: Record<string, any>, where: string): Generator<[string, any]> {
  for (const key of ['items', 'additionalProperties', 'schema'])
    if (node[key] && typeof node[key] === 'object') yield [`${where}/${key}`, node[key]];
  for (const key of ['properties', 'patternProperties'])
    for (const [name, sub] of Object.entries<any>(node[key] ?? {})) yield [`${where}/${key}/${name}`, sub];
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    for (const [i, sub] of (node[key] ?? []).entries()) yield [`${where}/${key}/${i}`, sub];
}

/** Each refinement keyword on a node whose provenance (its own, or the nearest marked node's above) is documented. */
function documentedRefinements(node: any, where: string, inherited: string, out: string[] = []): string[] {
  if (!node || typeof node !== 'object') return out;
  const provenance = node['x-provenance'] ?? inherited;
  if (provenance === 'documented')
    for (const keyword of REFINEMENTS)
      if (keyword in node && node[`x-${keyword}-provenance`] !== 'inferred') out.push(`${where} ${keyword}`);
  for (const [path, sub] of children(node, where)) documentedRefinements(sub, path, provenance, out);
  return out;
}

function schemaRoots(): [string, any][] {
  const roots: [string, any][] = [];
  for (const kind of ['schemas', 'parameters', 'headers'])
    for (const [name, node] of Object.entries<any>(doc.components[kind] ?? {}))
      roots.push([`#/components/${kind}/${name}`, node]);
  for (const [path, item] of Object.entries<any>(doc.paths))
    for (const [method, op] of Object.entries<any>(item))
      for (const [i, p] of (op.parameters ?? []).entries())
        roots.push([`#/paths/${path}/${method}/parameters/${i}`, p]);
  for (const [key, item] of Object.entries<any>(doc.webhooks))
    for (const [i, p] of (item.post.parameters ?? []).entries())
      roots.push([`#/webhooks/${key}/post/parameters/${i}`, p]);
  return roots;
}

describe('documented fields: the keywords the reference does not state are marked', () => {
  it('marks every bound, pattern, format and enumeration of a documented node inferred, unless the reference states it', () => {
    const found = schemaRoots().flatMap(([where, node]) => documentedRefinements(node, where, 'inferred'));
    expect(found.length).toBeGreaterThan(10);
    expect(found.filter((f) => !STATED.some(([pattern]) => pattern.test(f)))).toEqual([]);
  });
});

describe('the documented core of a schema', () => {
  it('keeps the documented fields, required and typed, and nothing the contract infers', () => {
    expect(validator.coreSchema('ApiKey')).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string' },
        key: { type: 'string' },
        name: { type: 'string' },
        orgCode: { type: 'string' },
        isActive: { type: 'boolean' },
      },
      required: ['id', 'key', 'name', 'orgCode', 'isActive'],
    });
    const entry = validator.coreSchema('ErrorCatalogEntry') as Record<string, any>;
    expect(Object.keys(entry.properties)).toEqual(['code', 'title', 'description', 'parameters']);
    expect(entry.required).toEqual(['code', 'title', 'description', 'parameters']);
    expect(entry.properties.code.enum).toHaveLength(478);
    expect(entry.properties.parameters.items.required).toEqual(['key', 'description']);
    const subscription = validator.coreSchema('Subscription') as Record<string, any>;
    expect(subscription.properties).not.toHaveProperty('createdAt');
    expect(subscription.properties.eventVersion).toEqual({ type: 'integer' });
  });

  it('types the problem code as the reference does (a string) and keeps code and parameters optional', () => {
    const problem = validator.coreSchema('Problem') as Record<string, any>;
    expect(problem.properties.code).toEqual({ type: 'string' });
    expect(problem.properties.status).toEqual({ type: 'integer' });
    expect(problem.properties.instance).toEqual({ type: 'string' });
    expect(problem.required).toEqual(['type', 'title', 'status', 'detail', 'instance']);
  });

  it('carries no annotation, extension keyword or reference: a standalone schema', () => {
    /** The keywords of every schema node of a core (property names are not keywords). */
    const keywords = (node: any, out: string[] = []): string[] => {
      if (!node || typeof node !== 'object') return out;
      for (const [key, value] of Object.entries<any>(node)) {
        out.push(key);
        if (key === 'properties' || key === 'patternProperties')
          for (const sub of Object.values(value)) keywords(sub, out);
        else if (Array.isArray(value)) for (const sub of value) keywords(sub, out);
        else if (key !== 'enum' && key !== 'const') keywords(value, out);
      }
      return out;
    };
    for (const name of Object.keys(doc.components.schemas)) {
      const found = keywords(validator.coreSchema(name)).filter((k) =>
        /^(x-|\$ref$|description$|examples$|title$)/.test(k),
      );
      expect(found, name).toEqual([]);
    }
  });

  it('accepts whatever the whole schema accepts (it only removes constraints)', () => {
    const samples: [string, unknown][] = [
      ['ApiKey', { id: 'k1', key: 'secret', name: 'ci', orgCode: 'demo', isActive: true }],
      [
        'Subscription',
        { id: 's', endpoint: 'http://x/', eventName: 'A.B.C', eventVersion: 1, createdAt: '2025-01-01T00:00:00Z' },
      ],
      [
        'Problem',
        { type: 'x', title: 't', status: 404, detail: 'd', instance: 'GET /v1/x', code: 'COMMON.ENTITY.NOT_FOUND' },
      ],
      ['EventVersionList', [{ eventName: 'Items.Sku.Created', eventVersion: 2 }]],
    ];
    for (const [name, value] of samples) {
      expect(validator.validateSchema(name, value), name).toEqual({ ok: true });
      expect(validator.validateCore(name, value), name).toEqual({ ok: true });
    }
  });
});

describe('the documented core of a response (the MUST part)', () => {
  const json = (status: number, body: unknown) => ({ status, contentType: 'application/json', body });
  const key = { id: 'k1', key: 'secret', name: 'ci', orgCode: 'demo', isActive: true };

  it('takes any 2xx with the documented body where the reference gives no success status; the exact status is a SHOULD', () => {
    expect(validator.responseCore('createApiKey', 200)?.status).toBeUndefined();
    expect(validator.validateResponseCore('createApiKey', json(200, { ...key, extra: 1 }))).toEqual({ ok: true });
    expect(validator.validateResponse('createApiKey', json(200, key)).ok).toBe(false);
    const { key: _key, ...noKey } = key;
    expect(validator.validateResponseCore('createApiKey', json(201, noKey))?.ok).toBe(false);
  });

  it('binds the status where the reference gives it (GET /v1/errors/{errorCode}: 200), not the inferred `status` field', () => {
    const entry = { code: 'COMMON.ENTITY.NOT_FOUND', title: 't', description: 'd', parameters: [] };
    expect(validator.validateResponseCore('getError', json(200, entry))).toEqual({ ok: true });
    expect(validator.validateResponse('getError', json(200, entry)).ok).toBe(false);
    expect(validator.validateResponseCore('getError', json(201, { ...entry, status: 404 }))?.ok).toBe(false);
  });

  it('says "no body" for the stock update under any 2xx, and nothing about its 204', () => {
    expect(
      validator.validateResponseCore('updateSkuStock', { status: 200, contentType: undefined, body: undefined }),
    ).toEqual({
      ok: true,
    });
    expect(validator.validateResponseCore('updateSkuStock', json(204, { ok: true }))?.ok).toBe(false);
    expect(
      validator.validateResponse('updateSkuStock', { status: 200, contentType: undefined, body: undefined }).ok,
    ).toBe(false);
  });

  it('makes nothing of a success binding where the reference shows neither status nor body', () => {
    expect(validator.responseCore('createWebhookSubscription', 201)).toBeUndefined();
    expect(validator.validateResponseCore('listSkus', json(200, {}))).toBeUndefined();
    expect(validator.validateResponseCore('listSkus', json(302, {}))).toBeUndefined();
  });

  it('wants a problem of every error, a 4xx for a code the operation declares, and leaves the exact status to the SHOULD part', () => {
    const problem = {
      type: 't',
      title: 't',
      status: 422,
      detail: 'd',
      instance: 'POST /v1/notifications/webhook/subscriptions',
    };
    const eventNotFound = { ...problem, code: 'NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND' };
    const sample = (status: number, body: unknown) => ({ status, contentType: 'application/problem+json', body });
    expect(validator.validateResponseCore('createWebhookSubscription', sample(422, eventNotFound))).toEqual({
      ok: true,
    });
    expect(validator.validateResponse('createWebhookSubscription', sample(422, eventNotFound)).ok).toBe(false);
    expect(
      validator.validateResponseCore('createWebhookSubscription', sample(500, { ...eventNotFound, status: 500 }))?.ok,
    ).toBe(false);
    expect(validator.validateResponseCore('listSkus', sample(418, { title: 'no type' }))?.ok).toBe(false);
    expect(
      validator.validateResponseCore('listSkus', json(400, { ...problem, status: 400, code: 'SOMETHING.NEW.CODE' })),
    ).toEqual({
      ok: true,
    });
  });
});
