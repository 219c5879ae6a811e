import { describe, expect, it } from 'vitest';
import { committedDocument, operationKeys, operations } from './load.js';
import {
  DESCRIBED_OPERATIONS,
  DOCUMENTED_ERROR_STATUSES,
  DOCUMENTED_PAIRS,
  DOCUMENTED_PERMISSIONS,
  ERROR_CODE_COUNT,
  ERROR_MESSAGE_OPERATIONS,
  ERROR_PREFIX_COUNT,
  PAGE_FIELDS,
  PROBLEM_FIELDS,
  PROBLEM_OPTIONAL_FIELDS,
  SHOWN_EVENT_NAMES,
} from './reference-facts.js';
import { FILTER_OPERATORS } from '../lists/operators.js';

const doc = committedDocument() as Record<string, any>;

describe('contract coverage of the reference', () => {
  it('holds exactly the 13 described operations and the 6 named in error messages', () => {
    expect(operationKeys(doc as never)).toEqual([...DESCRIBED_OPERATIONS, ...ERROR_MESSAGE_OPERATIONS].sort());
  });

  it('gives every operation an operationId, a domain tag, a summary and the permission it needs', () => {
    for (const { key, op } of operations(doc as never)) {
      expect(op.operationId, key).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.tags, key).toHaveLength(1);
      expect(op.summary, key).toBeTruthy();
      expect(op, key).toHaveProperty('x-permission');
    }
  });

  it('states the documented permission of each operation', () => {
    const ops = new Map(operations(doc as never).map((o) => [o.key, o.op]));
    for (const [key, permission] of Object.entries(DOCUMENTED_PERMISSIONS)) {
      expect(ops.get(key)?.['x-permission'], key).toBe(permission);
      expect(ops.get(key)?.['x-permission-provenance'], key).toBe('documented');
    }
  });

  it('lists every error status the reference shows for an operation, each marked documented', () => {
    const ops = new Map(operations(doc as never).map((o) => [o.key, o.op]));
    for (const [key, statuses] of Object.entries(DOCUMENTED_ERROR_STATUSES)) {
      for (const status of statuses) {
        const response = ops.get(key)?.responses?.[String(status)];
        expect(response, `${key} ${status}`).toBeDefined();
        expect(response['x-provenance'], `${key} ${status}`).toBe('documented');
      }
    }
  });

  it('answers the stock update with no body (documented) under 204 (inferred: the reference gives no status)', () => {
    const responses = doc.paths['/v1/items/skus/{skuReference}/stock'].put.responses;
    expect(responses['204']).toBeDefined();
    expect(responses['204'].content).toBeUndefined();
    expect(responses['204']['x-no-body']).toBe(true);
    expect(responses['204']['x-body-provenance']).toBe('documented');
    expect(responses['204']['x-body-reference-quote']).toBe('| Success | no content (no response body) |');
    expect(responses['204']['x-provenance']).toBe('inferred');
  });

  it('holds the documented status/code pairs on the operations where they arise', () => {
    const all = operations(doc as never);
    for (const pair of DOCUMENTED_PAIRS) {
      const carriers = all.filter(({ op }) => {
        const r = op.responses[String(pair.status)];
        if (!r) return false;
        return pair.code === null ? r['x-error-codes'].length === 0 : r['x-error-codes'].includes(pair.code);
      });
      expect(carriers.length, `${pair.status} ${pair.code}`).toBeGreaterThan(0);
    }
    const poLine = doc.paths['/v1/planning/purchaseOrders/{id}/lines/{lineId}'].put.responses['422'];
    expect(poLine['x-error-codes']).toContain('PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE');
  });

  it('gives every operation a 401 without code and a 429 with RATE_LIMIT.EXCEEDED and Retry-After', () => {
    for (const { key, op } of operations(doc as never)) {
      expect(op.responses['401']['x-error-codes'], key).toEqual([]);
      expect(op.responses['429']['x-error-codes'], key).toEqual(['COMMON.RATE_LIMIT.EXCEEDED']);
      expect(op.responses['429'].headers['Retry-After'], key).toBeDefined();
    }
  });

  it('gives every permission-guarded operation a 403 MISSING_PERMISSIONS', () => {
    for (const { key, op } of operations(doc as never)) {
      if (op['x-permission'] === null) continue;
      expect(op.responses['403']['x-error-codes'], key).toEqual(['COMMON.AUTH.MISSING_PERMISSIONS']);
    }
  });

  it('defines the problem body with its five fields required and code and parameters optional', () => {
    const problem = doc.components.schemas.Problem;
    expect([...problem.required].sort()).toEqual([...PROBLEM_FIELDS].sort());
    for (const field of PROBLEM_OPTIONAL_FIELDS) expect(problem.properties).toHaveProperty(field);
    // Open to extension members (RFC 9457; inferred), see strictness.test.ts.
    expect(problem.additionalProperties).toBe(true);
    expect(problem['x-additional-properties-provenance']).toBe('inferred');
  });

  it('defines the page envelope with its five fields for every list item', () => {
    for (const name of [
      'SkuListItemPage',
      'FamilyPage',
      'AssetPage',
      'SubscriptionPage',
      'NotificationPage',
      'DeliveryAttemptPage',
      'EventDescriptorPage',
    ]) {
      const page = doc.components.schemas[name];
      expect([...page.required].sort(), name).toEqual([...PAGE_FIELDS].sort());
    }
  });

  it('has the list parameters as shared components with the documented bounds and defaults', () => {
    const p = doc.components.parameters;
    // The maximum is inferred (spec/limits.ts) and carries its own provenance beside the keyword.
    expect(p.PageNumber.schema).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 2147483647,
      default: 1,
      'x-maximum-provenance': 'inferred',
    });
    expect(p.PageSize.schema).toEqual({ type: 'integer', minimum: 1, maximum: 1000, default: 25 });
    expect(p.FilterBy.name).toBe('filterBy');
    expect(p.SortBy.name).toBe('sortBy');
    for (const op of FILTER_OPERATORS) expect(p.FilterBy.description, op).toContain(`\`${op}\``);
    expect(p.FilterBy.description).toContain('%26%26');
  });

  it('marks every list operation with its filterable and sortable fields', () => {
    const lists = operations(doc as never).filter(({ op }) => op['x-list']);
    expect(lists.map((l) => l.key).sort()).toEqual(
      [
        'GET /v1/items/skus',
        'GET /v1/maintenance/assets',
        'GET /v1/notifications/events',
        'GET /v1/notifications/webhook',
        'GET /v1/notifications/webhook/subscriptions',
        'GET /v1/notifications/webhook/{id}/attempts',
        'POST /v1/items/families/search',
      ].sort(),
    );
    for (const { key, op } of lists) {
      expect(op['x-filterable'].length, key).toBeGreaterThan(0);
      expect(op['x-sortable'].length, key).toBeGreaterThan(0);
      for (const f of op['x-filterable']) for (const o of f.operators) expect(FILTER_OPERATORS, key).toContain(o);
    }
  });

  it('defines the JWTApiKey bearer scheme and the X-Api-Key header and applies them per operation', () => {
    expect(doc.components.securitySchemes.JWTApiKey).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
    for (const { key, op } of operations(doc as never)) {
      expect(op.security, key).toEqual([{ JWTApiKey: [] }, { ApiKey: [] }]);
      if (op['x-list']?.parametersIn === 'query') expect(op['x-api-key-provenance'], key).toBe('documented');
    }
  });

  it(`enumerates all ${ERROR_CODE_COUNT} codes of the ${ERROR_PREFIX_COUNT} prefixes, and carries the catalog`, () => {
    const codes: string[] = doc.components.schemas.ErrorCode.enum;
    expect(codes).toHaveLength(ERROR_CODE_COUNT);
    expect(new Set(codes).size).toBe(ERROR_CODE_COUNT);
    expect(new Set(codes.map((c) => c.slice(0, c.lastIndexOf('.') + 1))).size).toBe(ERROR_PREFIX_COUNT);
    const catalog: any[] = doc['x-error-catalog'];
    expect(catalog.map((e) => e.code)).toEqual(codes);
    for (const pair of DOCUMENTED_PAIRS) {
      if (!pair.code) continue;
      const entry = catalog.find((e) => e.code === pair.code);
      expect(entry.status, pair.code).toBe(pair.status);
      expect(entry['x-status-provenance'], pair.code).toBe('documented');
    }
  });

  it('describes every shown event, each version with a payload, as OpenAPI 3.1 webhooks signed by X-HMAC-Signature', () => {
    const keys = Object.keys(doc.webhooks);
    for (const name of SHOWN_EVENT_NAMES) expect(keys, name).toContain(`${name}.v1`);
    for (const [key, item] of Object.entries<any>(doc.webhooks)) {
      const header = item.post.parameters.find((p: any) => p.name === 'X-HMAC-Signature');
      expect(header?.schema.pattern, key).toBe('^[0-9a-f]{64}$');
      expect(item.post.requestBody.content['application/json'].schema.$ref, key).toMatch(
        /^#\/components\/schemas\/.+Payload$/,
      );
    }
    const families = new Set(Object.keys(doc.webhooks).map((k) => k.split('.')[0]));
    for (const family of ['Items', 'Warehouse', 'Planning', 'Production', 'Maintenance', 'Costs', 'People'])
      expect(families, family).toContain(family);
  });

  it('has a schema for each resource the contract names', () => {
    for (const name of [
      'ApiKey',
      'Subscription',
      'Notification',
      'DeliveryAttempt',
      'EventDescriptor',
      'StockUpdateBody',
      'InspectionDefinition',
      'InspectionUpdateBody',
      'SkuListItem',
      'Family',
      'Asset',
      'Tenant',
      'PurchaseOrderLine',
      'Problem',
      'ErrorCatalogEntry',
    ]) {
      expect(doc.components.schemas, name).toHaveProperty(name);
    }
  });
});
