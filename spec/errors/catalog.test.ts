import { describe, expect, expectTypeOf, it } from 'vitest';
import { ERROR_CODE_GROUPS } from './codes.js';
import {
  ERROR_CATALOG,
  ERROR_CODES,
  catalogEntry,
  isErrorCode,
  statusOf,
  toCatalogEntry,
  type ErrorCode,
} from './index.js';
import { statusRuleOf } from './statuses.js';

/** The prefixes of the catalog, in reference order. */
const ERROR_PREFIXES = ERROR_CODE_GROUPS.map((group) => group.prefix);

/** Facts read from the API reference (Errors / Error code catalog and Errors / Status and code pairs shown). */
const REFERENCE = {
  codeCount: 478,
  prefixCount: 74,
  firstPrefix: 'COMMON.QUERY.',
  lastPrefix: 'WAREHOUSE.AI.',
  /** prefix -> [number of suffixes, first suffix, last suffix], counted from the reference. */
  groups: {
    'COMMON.QUERY.': [3, 'FILTER_PARSING_FAILED', 'SORTING_PARSING_FAILED'],
    'COMMON.AUTH.': [5, 'MISSING_ROLE', 'UNAUTHORIZED'],
    'COMMON.RATE_LIMIT.': [1, 'EXCEEDED', 'EXCEEDED'],
    'ADMIN.BLOG_POST.': [6, 'INVALID_IMAGE', 'SLUG_ALREADY_EXISTS'],
    'AGENTS.AGENT_TASK.': [14, 'CANNOT_RESPOND_WHILE_RUNNING', 'PENDING_INPUT_NOT_FOUND'],
    'ITEMS.SKU.': [16, 'INVALID_DECIMAL_FORMAT', 'ALTERNATIVE_UNIT_NOT_FOUND'],
    'MAINTENANCE.WORK_ORDER.': [16, 'ACTION_ALREADY_COMPLETED', 'CANNOT_UPLOAD_FILE_TO_NON_FILE_ACTION'],
    'MESSAGING.CHATAPP.': [1, 'FILE_TOO_LARGE', 'FILE_TOO_LARGE'],
    'PLANNING.SALES_ORDER.': [10, 'CANNOT_CHANGE_CODE_WITH_LINES', 'PENDING_QUANTITY_CANNOT_BE_NEGATIVE'],
    'PLANNING.PURCHASE_ORDER.': [13, 'CANNOT_CHANGE_CODE_WITH_LINES', 'PENDING_QUANTITY_CANNOT_BE_NEGATIVE'],
    'PRODUCTION.SKU.': [12, 'RECIPE_NOT_VALID', 'RECIPE_POSITION_INVALID'],
    'PRODUCTION.RECIPE_VERSION.': [
      60,
      'CONDITION_FORMULA_DESERIALIZATION_FAILED',
      'CONDITION_FORMULA_INVALID_ROUNDING_MULTIPLE',
    ],
    'PRODUCTION.ORDER.': [51, 'INPUT_QUANTITY_NOT_NUMERIC', 'CANNOT_UPLOAD_FILE_TO_NON_FILE_INSPECTION'],
    'PRODUCTION.OPERATIONS_GROUP.': [20, 'INCOMPATIBLE_UNITS', 'COMPLETION_SUM_MISMATCH'],
    'WAREHOUSE.SHIPMENT.': [16, 'DELETE_SHIPPED_NOT_ALLOWED', 'REVERSE_MISSING_LOCATION'],
    'WAREHOUSE.RECEIPT.': [18, 'DELETE_RECEIVED_NOT_ALLOWED', 'NO_FILE_UPLOADED'],
    'WAREHOUSE.LOAD_ORDER.': [17, 'CANNOT_BE_PROVISIONED', 'CANNOT_REQUEST_MATERIALS'],
    'WAREHOUSE.MOVEMENT.': [21, 'OPERATION_CANNOT_BE_PROVISIONED', 'CONTAINER_NOT_CARRIED'],
    'WAREHOUSE.AI.': [2, 'COULD_NOT_PROCESS_IMAGE', 'GENERATED_INVALID_RESPONSE'],
  } as Record<string, [number, string, string]>,
  /** Groups followed by a parenthesised remark, which is not a code. */
  notes: ['ADMIN.TENANT.', 'MESSAGING.CHATAPP.'],
  documentedStatuses: {
    'COMMON.QUERY.FILTER_PARSING_FAILED': 400,
    'COMMON.AUTH.MISSING_PERMISSIONS': 403,
    'COMMON.ENTITY.NOT_FOUND': 404,
    'PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE': 422,
    'COMMON.RATE_LIMIT.EXCEEDED': 429,
  } as Record<string, number>,
  /** Codes named elsewhere in the reference (Events, Limits). */
  namedElsewhere: [
    'NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND',
    'NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL',
    'COMMON.TENANT.PLAN_LIMIT_EXCEEDED',
    'COMMON.FILE.SIZE_EXCEEDS_LIMIT',
    'ANALYTICS.EXPORT.ROW_LIMIT_EXCEEDED',
  ],
};

const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

describe('error code list', () => {
  it('has 478 codes and 74 prefixes, without duplicates', () => {
    expect(ERROR_CODES).toHaveLength(REFERENCE.codeCount);
    expect(new Set(ERROR_CODES).size).toBe(REFERENCE.codeCount);
    expect(ERROR_CODE_GROUPS).toHaveLength(REFERENCE.prefixCount);
    expect(ERROR_PREFIXES).toHaveLength(REFERENCE.prefixCount);
    expect(new Set(ERROR_PREFIXES).size).toBe(REFERENCE.prefixCount);
    expect(ERROR_PREFIXES[0]).toBe(REFERENCE.firstPrefix);
    expect(ERROR_PREFIXES.at(-1)).toBe(REFERENCE.lastPrefix);
  });

  it('makes every code from one prefix and an UPPER_SNAKE suffix', () => {
    for (const code of ERROR_CODES) {
      const prefixes = ERROR_PREFIXES.filter((p) => code.startsWith(p));
      expect(prefixes, code).toHaveLength(1);
      expect(code.slice(prefixes[0]!.length), code).toMatch(UPPER_SNAKE);
    }
    for (const prefix of ERROR_PREFIXES) expect(prefix).toMatch(/^[A-Z]+\.[A-Z_]+\.$/);
  });

  it('lists the flat codes in the order of the groups', () => {
    expect([...ERROR_CODES]).toEqual(ERROR_CODE_GROUPS.flatMap((g) => g.suffixes.map((s) => g.prefix + s)));
  });

  it('matches the reference counts and first/last codes of selected prefixes', () => {
    for (const [prefix, [count, first, last]] of Object.entries(REFERENCE.groups)) {
      const group = ERROR_CODE_GROUPS.find((g) => g.prefix === prefix);
      expect(group, prefix).toBeDefined();
      expect(group!.suffixes, prefix).toHaveLength(count);
      expect(group!.suffixes[0], prefix).toBe(first);
      expect(group!.suffixes.at(-1), prefix).toBe(last);
    }
  });

  it('keeps parenthesised remarks as notes, never as codes', () => {
    const withNotes = ERROR_CODE_GROUPS.filter((g) => 'note' in g).map((g) => g.prefix);
    expect(withNotes).toEqual(REFERENCE.notes);
    for (const code of ERROR_CODES) expect(code).not.toMatch(/[ ()]/);
    expect(ERROR_CODES).toContain('ADMIN.TENANT.PAYMENT_PROVIDER_CUSTOMER_ID_MISSING');
  });

  it('contains the codes the reference names outside the catalog', () => {
    for (const code of [...REFERENCE.namedElsewhere, ...Object.keys(REFERENCE.documentedStatuses)]) {
      expect(isErrorCode(code), code).toBe(true);
    }
  });

  it('types ErrorCode as a union of literals', () => {
    expectTypeOf<'COMMON.ENTITY.NOT_FOUND'>().toExtend<ErrorCode>();
    expectTypeOf<'COMMON.ENTITY.NOPE'>().not.toExtend<ErrorCode>();
  });
});

describe('statuses', () => {
  it('gives the documented pairs with provenance documented, and only those', () => {
    const documented = ERROR_CODES.filter((c) => statusOf(c).provenance === 'documented');
    expect(documented.sort()).toEqual(Object.keys(REFERENCE.documentedStatuses).sort());
    for (const [code, status] of Object.entries(REFERENCE.documentedStatuses)) {
      expect(isErrorCode(code)).toBe(true);
      expect(statusOf(code as ErrorCode)).toMatchObject({ status, provenance: 'documented' });
    }
  });

  it('gives every code a status between 400 and 599, and a rationale to every inferred one', () => {
    for (const code of ERROR_CODES) {
      const s = statusOf(code);
      expect(s.status, code).toBeGreaterThanOrEqual(400);
      expect(s.status, code).toBeLessThanOrEqual(599);
      expect(['documented', 'inferred']).toContain(s.provenance);
      if (s.provenance === 'inferred') expect(s.rationale?.length ?? 0, code).toBeGreaterThan(20);
    }
    expect(ERROR_CODES).toHaveLength(REFERENCE.codeCount);
  });

  it.each([
    ['COMMON.QUERY.SORTING_PARSING_FAILED', 400],
    ['COMMON.QUERY.EXPANSION_NOT_SUPPORTED', 400],
    ['COMMON.VALIDATION.ERROR', 400],
    ['COMMON.AUTH.UNAUTHORIZED', 401],
    ['COMMON.AUTH.MISSING_ROLE', 403],
    ['COMMON.TENANT.EXPIRED', 403],
    ['COMMON.TENANT.PLAN_FEATURE_NOT_ALLOWED', 403],
    ['COMMON.TENANT.PLAN_LIMIT_EXCEEDED', 409],
    ['COMMON.FILE.SIZE_EXCEEDS_LIMIT', 413],
    ['FILES.FILE.AUDIO_TOO_LARGE', 413],
    ['AGENTS.AUTOMATION.TRIGGER_NOT_FOUND', 404],
    ['WAREHOUSE.LOAD_ORDER.LINE_NOT_FOUND', 404],
    ['NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND', 400],
    ['NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL', 400],
    ['COMMON.ENTITY.ALREADY_EXISTS', 409],
    ['ITEMS.UNIT_OF_MEASURE.CODE_ALREADY_EXISTS', 409],
    ['ITEMS.FAMILY.ALREADY_DELETED', 409],
    ['ADMIN.CUSTOMER.TAX_IDENTIFIER_CONFLICT', 409],
    ['PRODUCTION.ORDER.ALREADY_FINISHED', 409],
    ['ITEMS.SKU.INVALID_DECIMAL_FORMAT', 400],
    ['PRODUCTION.ORDER.INPUT_QUANTITY_NOT_NUMERIC', 400],
    ['PRODUCTION.OPERATIONS_GROUP.INVALID_STATUS', 422],
    ['COMMON.QUANTITY.UNIT_NOT_CONFIGURED', 422],
    ['WAREHOUSE.SHIPMENT.EMPTY', 422],
    ['PLANNING.SALES_ORDER.CANNOT_UNDO_CANCELLATION', 422],
  ] as const)('infers %s -> %i', (code, status) => {
    expect(statusOf(code)).toMatchObject({ status, provenance: 'inferred' });
  });

  it('names the deciding rule for every code', () => {
    // Overrides are keyed by ErrorCode: one for a code outside the catalog does not compile.
    for (const code of ERROR_CODES) expect(statusRuleOf(code)).toMatch(/^[a-z-]+$/);
    expect(statusRuleOf('COMMON.ENTITY.NOT_FOUND')).toBe('documented');
    expect(statusRuleOf('WAREHOUSE.SHIPMENT.EMPTY')).toBe('default');
  });
});

describe('catalog entries', () => {
  it('has one record per code, in reference order', () => {
    expect(ERROR_CATALOG.map((r) => r.code)).toEqual([...ERROR_CODES]);
  });

  it('gives every record a title, a description, valid parameters, a status and provenance fields', () => {
    for (const record of ERROR_CATALOG) {
      expect(record.title.trim(), record.code).not.toBe('');
      expect(record.description.trim(), record.code).not.toBe('');
      expect(record.description, record.code).toMatch(/[.]$/);
      expect(Array.isArray(record.parameters)).toBe(true);
      const keys = record.parameters.map((p) => p.key);
      expect(new Set(keys).size, record.code).toBe(keys.length);
      for (const p of record.parameters) {
        expect(p.key, record.code).toMatch(/^[a-z][A-Za-z]*$/);
        expect(p.description.trim(), record.code).not.toBe('');
      }
      expect(record.status).toBeGreaterThanOrEqual(400);
      expect(record.status).toBeLessThanOrEqual(599);
      expect(record.provenance).toBe('documented');
      expect(['documented', 'inferred']).toContain(record.statusProvenance);
      expect(['documented', 'inferred']).toContain(record.textProvenance);
      if (record.statusProvenance === 'inferred') expect(record.statusRationale, record.code).toBeTruthy();
      if (record.textProvenance === 'inferred') expect(record.textRationale, record.code).toBeTruthy();
      expect(record.status).toBe(statusOf(record.code).status);
    }
  });

  it('marks no catalog text documented (the reference gives none), and quotes the condition a description restates', () => {
    expect(ERROR_CATALOG.filter((r) => r.textProvenance === 'documented').map((r) => r.code)).toEqual([]);
    const restated = ERROR_CATALOG.filter((r) => r.textConditionQuote !== undefined).map((r) => r.code);
    expect(restated.sort()).toEqual(
      [
        ...Object.keys(REFERENCE.documentedStatuses),
        'NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND',
        'NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL',
      ].sort(),
    );
  });

  it('carries the documented conditions and parameters', () => {
    expect(catalogEntry('COMMON.QUERY.FILTER_PARSING_FAILED')).toMatchObject({
      title: 'Filter parsing failed',
      description: 'The filter string cannot be parsed or names a column that does not exist.',
      status: 400,
      statusProvenance: 'documented',
    });
    expect(catalogEntry('COMMON.QUERY.FILTER_PARSING_FAILED')!.parameters.map((p) => p.key)).toEqual([
      'filterBy',
      'position',
    ]);
    expect(catalogEntry('COMMON.AUTH.MISSING_PERMISSIONS')!.parameters.map((p) => p.key)).toEqual(['permission']);
    expect(catalogEntry('COMMON.AUTH.MISSING_PERMISSIONS')!.parameters[0]!.description).toContain(
      'Domain.Resource.Access',
    );
    expect(catalogEntry('COMMON.ENTITY.NOT_FOUND')!.parameters.map((p) => p.key)).toEqual(['entity', 'id']);
    expect(catalogEntry('COMMON.RATE_LIMIT.EXCEEDED')!.parameters).toEqual([]);
    expect(catalogEntry('COMMON.RATE_LIMIT.EXCEEDED')!.title).toBe('Rate limit exceeded');
    expect(catalogEntry('PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE')!.parameters.map((p) => p.key)).toEqual([
      'purchaseOrderId',
      'lineId',
    ]);
    expect(catalogEntry('NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND')!.parameters.map((p) => p.key)).toEqual([
      'eventName',
      'eventVersion',
    ]);
    expect(catalogEntry('NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL')!.parameters.map((p) => p.key)).toEqual([
      'endpoint',
    ]);
  });

  it('builds inferred texts from the code name', () => {
    expect(catalogEntry('COMMON.QUERY.SORTING_PARSING_FAILED')!.parameters.map((p) => p.key)).toEqual(['sortBy']);
    expect(catalogEntry('COMMON.VALIDATION.ERROR')!.parameters.map((p) => p.key)).toEqual(['field']);
    expect(catalogEntry('COMMON.QUANTITY.UNIT_NOT_CONFIGURED')!.parameters.map((p) => p.key)).toEqual([
      'unitOfMeasureId',
      'skuReference',
    ]);
    const line = catalogEntry('PLANNING.SALES_ORDER.CANNOT_REMOVE_COMPLETED_LINE')!;
    expect(line).toMatchObject({
      title: 'Cannot remove completed line',
      description: 'Sales order (planning): cannot remove completed line.',
      textProvenance: 'inferred',
      statusProvenance: 'inferred',
    });
    expect(line.parameters.map((p) => p.key)).toEqual(['id', 'lineId']);
    expect(catalogEntry('PRODUCTION.SKU.BOM_CONTAINS_CYCLE')!.title).toBe('BOM contains cycle');
    expect(catalogEntry('ITEMS.SKU.INVALID_DECIMAL_FORMAT')!.parameters.map((p) => p.key)).toEqual([
      'skuReference',
      'value',
    ]);
    expect(catalogEntry('AGENTS.AUTOMATION.DELETED')!.title).toBe('Automation deleted');
  });

  it('looks codes up and rejects unknown ones', () => {
    expect(catalogEntry('COMMON.ENTITY.NOT_FOUND')?.status).toBe(404);
    expect(catalogEntry('COMMON.ENTITY.NOPE')).toBeUndefined();
    expect(catalogEntry('common.entity.not_found')).toBeUndefined();
    expect(catalogEntry('COMMON.ENTITY.')).toBeUndefined();
    expect(catalogEntry('')).toBeUndefined();
    expect(catalogEntry('toString')).toBeUndefined();
    expect(isErrorCode('WAREHOUSE.AI.COULD_NOT_PROCESS_IMAGE')).toBe(true);
    expect(isErrorCode('WAREHOUSE.AI.')).toBe(false);
    expect(isErrorCode('__proto__')).toBe(false);
  });

  it('exposes the public entry shape and keeps records immutable', () => {
    const record = catalogEntry('COMMON.ENTITY.NOT_FOUND')!;
    expect(Object.keys(toCatalogEntry(record)).sort()).toEqual(['code', 'description', 'parameters', 'title']);
    expect(Object.isFrozen(record)).toBe(true);
    expect(Object.isFrozen(record.parameters)).toBe(true);
  });
});
