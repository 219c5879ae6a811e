import { describe, expect, it } from 'vitest';
import { committedDocument, committedValidator, operations } from './load.js';

const doc = committedDocument() as Record<string, any>;
const validator = committedValidator();

const sku = {
  id: 'sku_1',
  reference: 'SKU-1',
  name: 'Hex bolt M8',
  description: null,
  familyId: 'fam_1',
  status: 'Active',
  baseUnitOfMeasureId: 'uom_pcs',
  totalStock: 12,
  isStockControlled: true,
  createdAt: '2025-01-01T00:00:00.000Z',
  lastModifiedAt: '2025-01-02T00:00:00.000Z',
};
const page = { results: [sku], pageNumber: 1, pageSize: 25, totalPages: 1, totalCount: 1 };
const respond = (body: unknown) =>
  validator.validateResponse('listSkus', { status: 200, contentType: 'application/json', body });
const problem = {
  type: 'http://x/errors/COMMON.ENTITY.NOT_FOUND',
  title: 'Not found',
  status: 404,
  detail: 'd',
  instance: 'GET /v1/x',
  code: 'COMMON.ENTITY.NOT_FOUND',
};
const problemOf = (body: unknown) =>
  validator.validateProblem({ status: 404, contentType: 'application/problem+json', body });

/** Resolves a local `$ref` of the committed document. */
function deref(node: any): any {
  let out = node;
  for (let i = 0; i < 8 && out?.$ref; i++)
    out = out.$ref
      .split('/')
      .slice(1)
      .reduce((n: any, k: string) => n?.[k], doc);
  return out;
}

/** Every object schema (one with `properties`) reachable from `schema`, with where it was found. */
function objectSchemas(schema: any, where: string, out = new Map<any, string>(), depth = 0): Map<any, string> {
  const s = deref(schema);
  if (!s || typeof s !== 'object' || out.has(s) || depth > 20) return out;
  if (s.properties) out.set(s, where);
  for (const [name, prop] of Object.entries<any>(s.properties ?? {}))
    objectSchemas(prop, `${where}.${name}`, out, depth + 1);
  if (s.items) objectSchemas(s.items, `${where}[]`, out, depth + 1);
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    for (const [i, sub] of (s[key] ?? []).entries()) objectSchemas(sub, `${where}.${key}${i}`, out, depth + 1);
  return out;
}

/** Every object schema of every response body of the contract, and of every webhook payload. */
function responseObjects(): Map<any, string> {
  const out = new Map<any, string>();
  for (const { key, op } of operations(doc as never)) {
    for (const [status, response] of Object.entries<any>(op.responses)) {
      for (const [media, content] of Object.entries<any>(response.content ?? {}))
        objectSchemas(content.schema, `${key} ${status} ${media}`, out);
    }
  }
  for (const [name, schema] of Object.entries<any>(doc.components.schemas))
    if (name.endsWith('Payload')) objectSchemas(schema, name, out);
  return out;
}

describe('the contract validator: documented fields are strict', () => {
  it('accepts a well-formed SKU page', () => {
    expect(respond(page)).toEqual({ ok: true });
  });

  it('rejects a response item with a missing field', () => {
    const { name: _name, ...rest } = sku;
    expect(respond({ ...page, results: [rest] }).ok).toBe(false);
  });

  it('rejects a response item with a wrong type', () => {
    expect(respond({ ...page, results: [{ ...sku, totalStock: '12' }] }).ok).toBe(false);
  });

  it('rejects an envelope with a missing field', () => {
    const { totalCount: _t, ...noTotal } = page;
    expect(respond(noTotal).ok).toBe(false);
  });

  it("rejects a problem with a missing instance, or a code that is not of the catalog's shape", () => {
    expect(problemOf(problem)).toEqual({ ok: true });
    const { instance: _i, ...noInstance } = problem;
    expect(problemOf(noInstance).ok).toBe(false);
    expect(problemOf({ ...problem, code: 'not a code' }).ok).toBe(false);
    expect(problemOf({ ...problem, code: 'NOPE' }).ok).toBe(false);
  });

  it('rejects a status the operation does not declare and a body on a no-content response', () => {
    expect(
      validator.validateResponse('listSkus', { status: 201, contentType: 'application/json', body: page }).ok,
    ).toBe(false);
    expect(
      validator.validateResponse('updateSkuStock', { status: 204, contentType: undefined, body: undefined }),
    ).toEqual({ ok: true });
    expect(
      validator.validateResponse('updateSkuStock', { status: 204, contentType: 'application/json', body: { ok: true } })
        .ok,
    ).toBe(false);
  });
});

describe('the contract validator: fields the reference does not show are accepted and named', () => {
  it('accepts a response item with an extra field ("Other SKU fields: not shown") and names it', () => {
    const body = { ...page, results: [{ ...sku, warehouseZone: 'B2' }] };
    expect(respond(body)).toEqual({ ok: true });
    expect(validator.unknownFields('listSkus', { status: 200, body })).toEqual(['results[0].warehouseZone']);
  });

  it('accepts an envelope with an extra field (the envelope is open too) and names it', () => {
    const body = { ...page, links: { next: null } };
    expect(respond(body)).toEqual({ ok: true });
    expect(validator.unknownFields('listSkus', { status: 200, body })).toEqual(['links']);
  });

  it('accepts a problem with an extension member (RFC 9457) and with a code the catalog does not list', () => {
    expect(problemOf({ ...problem, traceId: 'abc' })).toEqual({ ok: true });
    expect(problemOf({ ...problem, code: 'ITEMS.SKU.SOMETHING_NEW' })).toEqual({ ok: true });
    expect(validator.unknownFieldsOf('Problem', { ...problem, traceId: 'abc', parameters: { anything: 1 } })).toEqual([
      'traceId',
    ]);
  });

  it("still names nothing in a response that carries only the contract's fields", () => {
    expect(validator.unknownFields('listSkus', { status: 200, body: page })).toEqual([]);
  });
});

describe('openness of the contract', () => {
  it('opens every response object, and every webhook payload and its data, marked inferred with a rationale that cites the reference', () => {
    const objects = responseObjects();
    expect(objects.size).toBeGreaterThan(50);
    for (const [schema, where] of objects) {
      expect(schema.additionalProperties, `${where} is not open`).toBe(true);
      expect(schema['x-additional-properties-provenance'], where).toBe('inferred');
      expect(schema['x-additional-properties-rationale'], where).toMatch(/not shown|does not say/);
    }
  });

  it('keeps the documented fields of open objects required and typed', () => {
    const s = doc.components.schemas;
    expect(s.SkuListItem.required).toEqual(expect.arrayContaining(['id', 'reference', 'name']));
    expect(s.SkuListItem.properties.reference.type).toBe('string');
    expect(s.Subscription.required).toEqual(expect.arrayContaining(['id', 'endpoint', 'eventName', 'eventVersion']));
    expect(s.Subscription.properties.eventVersion.type).toBe('integer');
    expect(s.Problem.required).toEqual(expect.arrayContaining(['type', 'title', 'status', 'detail', 'instance']));
    expect(s.ApiKey.required).toEqual(expect.arrayContaining(['id', 'key', 'name', 'orgCode', 'isActive']));
    expect(s.ErrorCatalogEntry.required).toEqual(
      expect.arrayContaining(['code', 'title', 'description', 'parameters']),
    );
  });

  it("lists the known codes of Problem.code first, then accepts any code of the catalog's shape (inferred)", () => {
    const code = doc.components.schemas.Problem.properties.code;
    expect(code.anyOf[0]).toEqual({ $ref: '#/components/schemas/ErrorCode' });
    expect(code.anyOf[1]).toMatchObject({
      type: 'string',
      pattern: '^[A-Z][A-Z0-9_]*(\\.[A-Z0-9_]+)+$',
      'x-provenance': 'inferred',
    });
    const shape = new RegExp(code.anyOf[1].pattern);
    for (const known of doc.components.schemas.ErrorCode.enum) expect(known).toMatch(shape);
  });

  it('keeps every request body closed, marked inferred with why unknown fields are rejected', () => {
    let bodies = 0;
    for (const { key, op } of operations(doc as never)) {
      const schema = op.requestBody ? deref(op.requestBody.content['application/json'].schema) : undefined;
      if (!schema) continue;
      bodies++;
      expect(schema.additionalProperties, `${key} body is open`).toBe(false);
      expect(schema['x-provenance'], key).toBe('inferred');
      expect(schema['x-rationale'], key).toContain('Unknown fields are rejected');
    }
    expect(bodies).toBe(6);
  });

  it("names the unknown field of a request body in the first error, as the mock's 400 detail does", () => {
    expect(validator.firstError('StockUpdateBody', { locationReference: 'L1', stock: 1, stok: 2 })).toEqual({
      field: 'stok',
      message: 'is not a known field',
    });
  });
});
