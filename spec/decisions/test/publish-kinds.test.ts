import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { buildDocument } from '../../build.js';
import { ContractValidator } from '../../validate.js';
import { decisionPoints } from '../index.js';
import { withObservedDecisions } from '../publish.js';
import { decisionFile } from './decision-file.js';

/**
 * The contract published with what a deployment of its own design was observed to do at the record, list, problem
 * and credential points: the adapted document is valid OpenAPI, and its validator (what `opsapi conform --decisions`
 * judges responses by) accepts that deployment's answers while documented members stay binding.
 */

const shape = (fields: Record<string, string[]>, optional: string[] = []) => ({
  fields: Object.entries(fields).map(([name, types]) => ({ name, types, always: !optional.includes(name) })),
});

const OBSERVED = {
  'record-fields:listSkus': shape({ id: ['string'], reference: ['string'], name: ['string'], CreatedAt: ['string'] }),
  'record-fields:getError': shape({
    code: ['string'],
    title: ['string'],
    description: ['string'],
    parameters: ['array'],
  }),
  'record-fields:deleteWebhookSubscription': shape({ deleted: ['boolean'], id: ['string'] }),
  'success-status:deleteWebhookSubscription': 200,
  'list-form:listEventVersions': 'envelope',
  'webhook-payload': shape({ eventId: ['string'], event: ['string'], version: ['number'], resource: ['object'] }),
  'webhook-event-id': { header: 'X-Webhook-Id', field: 'eventId' },
  'webhook-attempt': {
    success: { field: 'statusCode', form: 'status-code' },
    manual: { field: 'manual', value: true },
  },
  'problem-media-type': 'application/json',
  'problem-401-type': 'https://datatracker.ietf.org/doc/html/rfc9110#section-15.5.2',
  'api-key-alone': 'refused',
  'key-repeating-bearer': 'refused',
  'permission:listSkus': 'none',
  'list-fields:listSkus': [
    { name: 'CreatedAt', query: 'CreatedAt', type: 'date', operators: ['IsAfter'], sortable: true },
  ],
  'null-order': 'last',
  'unknown-sort-field': 'ignored',
  'filter-precedence': 'left-to-right',
  'catalog-texts': 'own',
};

const adapted = withObservedDecisions(buildDocument(), decisionFile(OBSERVED)) as Record<string, any>;
const validator = new ContractValidator(adapted as never);

function operation(operationId: string): Record<string, any> {
  for (const item of Object.values<any>(adapted.paths))
    for (const op of Object.values<any>(item)) if (op?.operationId === operationId) return op;
  throw new Error(`no operation ${operationId}`);
}

const json = 'application/json';

describe('withObservedDecisions with the record, list, problem and credential points', () => {
  it('takes only valid observed values (the test file itself)', () => {
    for (const [id, value] of Object.entries(OBSERVED)) expect(decisionPoints().get(id)?.invalid(value), id).toBeNull();
  });

  it('judges list items by the observed members, documented members still required', () => {
    const item = { id: 'sku_1', reference: 'SKU-1', name: 'Bolt', CreatedAt: '2025-01-01T00:00:00Z' };
    const page = (results: unknown[]) => ({ results, pageNumber: 1, pageSize: 25, totalPages: 1, totalCount: 1 });
    expect(validator.validateResponse('listSkus', { status: 200, contentType: json, body: page([item]) })).toEqual({
      ok: true,
    });
    const { name: _name, ...unnamed } = item;
    expect(validator.validateResponse('listSkus', { status: 200, contentType: json, body: page([unnamed]) }).ok).toBe(
      false,
    );
    expect(operation('listSkus').responses['200']['x-provenance']).toBe('observed');
  });

  it("drops the contract's own members the target does not have (a catalog entry without status)", () => {
    const entry = { code: 'COMMON.ENTITY.NOT_FOUND', title: 't', description: 'd', parameters: [] };
    expect(validator.validateResponse('getError', { status: 200, contentType: json, body: entry })).toEqual({
      ok: true,
    });
  });

  it('gives a success the contract gives no body the body observed, at the observed status', () => {
    const body = { deleted: true, id: 'sub_1' };
    const sample = { status: 200, contentType: json, body };
    expect(validator.validateResponse('deleteWebhookSubscription', sample)).toEqual({ ok: true });
  });

  it('answers a collection in the observed form around the same items', () => {
    const results = [{ eventName: 'Items.Sku.Created', eventVersion: 1 }];
    const body = { results, pageNumber: 1, pageSize: 25, totalPages: 1, totalCount: 1 };
    expect(validator.validateResponse('listEventVersions', { status: 200, contentType: json, body })).toEqual({
      ok: true,
    });
  });

  it('describes the webhook payload, its event id and its attempt records as observed', () => {
    const payload = { eventId: 'evt_1', event: 'Items.Sku.Created', version: 1, resource: { id: 'sku_1' } };
    expect(validator.validateSchema('WebhookPayload', payload)).toEqual({ ok: true });
    expect(adapted.components.schemas.WebhookPayload['x-event-id']).toEqual(OBSERVED['webhook-event-id']);
    expect(adapted.components.schemas.DeliveryAttempt.description).toMatch(/`statusCode` holds the receiver's 2xx/);
  });

  it('keys problem responses by the observed media type and gives the plain 401 the observed address', () => {
    const responses = operation('listSkus').responses;
    expect(Object.keys(responses['400'].content)).toEqual([json]);
    expect(responses['401']['x-problem-type'].preferred).toBe(OBSERVED['problem-401-type']);
    expect(adapted['x-behaviour']?.['problem-media-type']?.value ?? json).toBe(json);
  });

  it('lists the API key only beside the bearer token, and says what a repeated token gets', () => {
    expect(operation('listSkus').security).toEqual([{ JWTApiKey: [] }, { JWTApiKey: [], ApiKey: [] }]);
    expect(adapted.components.securitySchemes.ApiKey['x-with-bearer'].rule).toMatch(/refused with the plain 401/);
  });

  it('states the permission, the fields and the list rules observed', () => {
    const op = operation('listSkus');
    expect(op['x-permission']).toBeNull();
    expect(op['x-permission-provenance']).toBe('observed');
    expect(op['x-filterable']).toEqual([{ field: 'CreatedAt', type: 'date', operators: ['IsAfter'] }]);
    expect(op['x-sortable']).toEqual(['CreatedAt']);
    const sortBy = adapted.components.parameters.SortBy ?? op.parameters.find((p: any) => p.name === 'sortBy');
    expect(JSON.stringify(adapted)).toMatch(/Null values come last in an ascending sort/);
    expect(JSON.stringify(adapted)).toMatch(/A field the list does not have is ignored/);
    expect(sortBy).toBeDefined();
    const collation = adapted['x-behaviour']?.['sort-collation'];
    if (collation) expect(collation.value).toMatch(/nulls last ascending \(first descending\)/);
  });

  it('gives a valid OpenAPI 3.1 document (openapi-parser)', async () => {
    const result = await validate(structuredClone(adapted) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });
});
