import { compileErrors, validate } from '@readme/openapi-parser';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { describe, expect, it } from 'vitest';
import { buildDocument, CONTRACT_VERSION } from '../../build.js';
import { OPERATOR_SEMANTICS } from '../../lists/operators.js';
import { DECISION_FORMAT, decisionPoints, type DecisionFile, type RecordedDecision } from '../index.js';
import { withObservedDecisions } from '../publish.js';

// Both packages are CommonJS; under ESM their named exports sit on the default export (as in spec/test/validity.test.ts).

const TARGET = 'https://ops.example.test';
const DATE = '2025-03-01T10:00:00Z';

/** A decision as `opsapi learn` records it: the contract's value from `decisionPoints`, and what the target did. */
function recorded(id: string, observed: unknown): RecordedDecision {
  const point = decisionPoints().get(id);
  if (!point) throw new Error(`no decision point ${id}`);
  expect(observed, `${id}: the test needs an observed value that differs`).not.toEqual(point.inferred);
  expect(point.invalid(observed), `${id}: the observed value must be valid`).toBeNull();
  return {
    id,
    title: point.title,
    inferred: point.inferred,
    observed,
    differs: true,
    evidence: [],
  } as RecordedDecision;
}

function decisionFile(decisions: RecordedDecision[]): DecisionFile {
  return {
    format: DECISION_FORMAT,
    contractVersion: CONTRACT_VERSION,
    target: TARGET,
    date: DATE,
    tool: 'opsapi learn (test)',
    decisions,
    notObserved: [],
  };
}

/** One decision of each kind, each observed with a value the contract did not infer. */
const ONE_OF_EACH_KIND = [
  recorded('code-status:ITEMS.FAMILY.ALREADY_DELETED', 422),
  recorded('success-status:createApiKey', 200),
  recorded('retry-delay', { header: 'X-RateLimit-Reset', unit: 'epoch-seconds' }),
  recorded('other-api-key-with-bearer', 'ignored'),
  recorded('text-case', 'sensitive'),
  recorded('default-order:listSkus', '-createdAt'),
];

const contract = buildDocument();
const adapted = withObservedDecisions(contract, decisionFile(ONE_OF_EACH_KIND)) as Record<string, any>;

/** The operation of an operationId in a document. */
function operation(doc: Record<string, any>, operationId: string): Record<string, any> {
  for (const item of Object.values<any>(doc.paths))
    for (const op of Object.values<any>(item)) if (op?.operationId === operationId) return op;
  throw new Error(`no operation ${operationId}`);
}

/** Expects the mark of a node one decision changed: observed where, when, and what the contract said. */
function expectObserved(node: Record<string, any>, decision: string, inferred: unknown, provenance = 'x-provenance') {
  expect(node[provenance]).toBe('observed');
  expect(node['x-observed']).toMatchObject({ target: TARGET, date: DATE, decisions: [decision], inferred });
}

describe('withObservedDecisions with one decision of each kind', () => {
  it('gives the catalog entry of a code its observed status, marked observed with the inferred one', () => {
    const entry = adapted['x-error-catalog'].find((e: any) => e.code === 'ITEMS.FAMILY.ALREADY_DELETED');
    expect(entry.status).toBe(422);
    expectObserved(entry, 'code-status:ITEMS.FAMILY.ALREADY_DELETED', 409, 'x-status-provenance');
    expect(entry['x-status-rationale']).toBeUndefined();
    expect(entry['x-observed'].rationale).toMatch(/409 Conflict/);
  });

  it('moves the code to a new response of the observed status and removes the one that existed only for it', () => {
    const responses = operation(adapted, 'deleteFamily').responses;
    expect(responses['409']).toBeUndefined();
    expect(responses['422']['x-error-codes']).toEqual(['ITEMS.FAMILY.ALREADY_DELETED']);
    expect(responses['422'].content).toEqual(responses['404'].content);
    expect(responses['422'].description).toMatch(/Codes: `ITEMS\.FAMILY\.ALREADY_DELETED`\.$/);
    expectObserved(responses['422'], 'code-status:ITEMS.FAMILY.ALREADY_DELETED', {
      'ITEMS.FAMILY.ALREADY_DELETED': 409,
    });
  });

  it('moves the success response to the observed status with its content and links', () => {
    const before = operation(contract, 'createApiKey').responses['201'];
    const after = operation(adapted, 'createApiKey').responses;
    expect(after['201']).toBeUndefined();
    expect(after['200'].content).toEqual(before.content);
    expect(after['200'].links).toEqual(before.links);
    expectObserved(after['200'], 'success-status:createApiKey', 201);
    expect(after['200']['x-observed'].rationale).toBe(before['x-rationale']);
  });

  it('tells the retry delay of every 429 in the observed header, an integer of epoch seconds', () => {
    let seen = 0;
    for (const item of Object.values<any>(adapted.paths))
      for (const op of Object.values<any>(item)) {
        const response = op.responses['429'];
        expect(Object.keys(response.headers)).toEqual(['X-RateLimit-Reset']);
        const header = response.headers['X-RateLimit-Reset'];
        expect(header.schema).toEqual({ type: 'integer', minimum: 0 });
        expect(header.description).toMatch(/seconds since the Unix epoch/);
        expectObserved(header, 'retry-delay', { header: 'Retry-After', unit: 'seconds' });
        expect(response.description).not.toMatch(/Retry-After/);
        seen++;
      }
    expect(seen).toBe(Object.values(contract.paths ?? {}).flatMap((item) => Object.values(item)).length);
    expect(adapted.components.headers).toBeUndefined();
  });

  it('states the observed rule of an X-Api-Key sent with a bearer token on the ApiKey scheme', () => {
    const scheme = adapted.components.securitySchemes.ApiKey;
    expect(scheme['x-with-bearer'].rule).toMatch(/not checked/);
    expectObserved(scheme['x-with-bearer'], 'other-api-key-with-bearer', 'refused');
    expect(scheme.description).toMatch(/observed on https:\/\/ops\.example\.test/);
    expect(scheme.description).not.toMatch(/\(inferred, `x-with-bearer`\)/);
  });

  it('says Contains, StartsWith and EndsWith are case-sensitive in every filterBy description', () => {
    const filterBy = [
      adapted.components.parameters.FilterBy,
      ...operation(adapted, 'listSkus').parameters.filter((p: any) => p.name === 'filterBy'),
    ];
    for (const parameter of filterBy) {
      expect(parameter.description).toMatch(/`Contains`: field contains the text \(observed on [^)]*: case-sensitive/);
      expect(parameter.description).toMatch(/`StartsWith`: [^\n]*case-sensitive\)/);
      expect(parameter.description).toMatch(/`EndsWith`: [^\n]*case-sensitive\)/);
      // The reference documents the parameter: it stays documented and says what was observed in x-observed.
      expect(parameter['x-provenance']).toBe('documented');
      expect(parameter['x-observed']).toMatchObject({
        target: TARGET,
        decisions: ['text-case'],
        inferred: 'insensitive',
      });
    }
    expect(JSON.stringify(adapted)).not.toContain(OPERATOR_SEMANTICS.Contains);
  });

  it("adds the observed default order to the list's sortBy parameter", () => {
    const sortBy = operation(adapted, 'listSkus').parameters.find((p: any) => p.name === 'sortBy');
    expect(sortBy.description).toMatch(/Without `sortBy` the list is ordered by `createdAt` descending \(observed on/);
    expect(sortBy['x-observed']).toMatchObject({ decisions: ['default-order:listSkus'], inferred: 'id' });
  });

  it('lists every decision in x-decisions and says in info.description that the contract was adapted', () => {
    expect(adapted['x-decisions']).toEqual({
      target: TARGET,
      date: DATE,
      tool: 'opsapi learn (test)',
      observed: ONE_OF_EACH_KIND.map((d) => ({ id: d.id, inferred: d.inferred, observed: d.observed })),
    });
    expect(adapted.info.description).toBe(
      `${contract.info.description}\n\nThis contract was adapted to observations of ${TARGET} on ${DATE} (6 decision point(s), listed in \`x-decisions\`): what they changed is marked \`x-provenance: observed\` with \`x-observed\`.`,
    );
  });

  it('leaves the document it was given unchanged', () => {
    const document = buildDocument();
    const copy = structuredClone(document);
    withObservedDecisions(document, decisionFile(ONE_OF_EACH_KIND));
    expect(document).toEqual(copy);
  });

  // openapi-parser checks the OpenAPI 3.1 schema and its extra rules; Spectral's lint of the same shapes runs on the
  // committed contract (spec/test/validity.test.ts), which differs from this one only in the nodes checked above.
  it('gives a valid OpenAPI 3.1 document (openapi-parser)', async () => {
    const result = await validate(structuredClone(adapted) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });
});

describe('withObservedDecisions, one case at a time', () => {
  const adapt = (...decisions: RecordedDecision[]) =>
    withObservedDecisions(contract, decisionFile(decisions)) as Record<string, any>;

  it('with no decision gives the contract unchanged but for x-decisions', () => {
    const { 'x-decisions': decisions, ...rest } = withObservedDecisions(contract, decisionFile([])) as Record<
      string,
      any
    >;
    expect(decisions).toEqual({ target: TARGET, date: DATE, tool: 'opsapi learn (test)', observed: [] });
    expect(rest).toEqual(contract as OpenAPIObject);
  });

  it('keeps a documented response whose only code moved: the reference lists its status for the operation', () => {
    const doc = adapt(recorded('code-status:COMMON.VALIDATION.ERROR', 422));
    const responses = operation(doc, 'updateSkuStock').responses;
    expect(responses['400']['x-error-codes']).toEqual([]);
    expect(responses['400']['x-provenance']).toBe('documented');
    expect(responses['400'].description).toMatch(/`COMMON\.VALIDATION\.ERROR` is answered with 422, not 400/);
    expect(responses['422']['x-error-codes']).toContain('COMMON.VALIDATION.ERROR');
    expect(responses['422']['x-error-codes']).toContain('COMMON.QUANTITY.UNIT_NOT_CONFIGURED');
  });

  it('takes one code out of a response that keeps its other codes', () => {
    const doc = adapt(recorded('code-status:COMMON.QUERY.SORTING_PARSING_FAILED', 422));
    const responses = operation(doc, 'listSkus').responses;
    expect(responses['400']['x-error-codes']).toEqual([
      'COMMON.QUERY.FILTER_PARSING_FAILED',
      'COMMON.VALIDATION.ERROR',
    ]);
    expect(responses['400'].description).toMatch(
      /Codes: `COMMON\.QUERY\.FILTER_PARSING_FAILED`, `COMMON\.VALIDATION\.ERROR`\.$/,
    );
    expect(responses['422']['x-error-codes']).toEqual(['COMMON.QUERY.SORTING_PARSING_FAILED']);
  });

  it('tells an HTTP-date retry delay as a string', () => {
    const doc = adapt(recorded('retry-delay', { header: 'Retry-After', unit: 'http-date' }));
    const header = operation(doc, 'listSkus').responses['429'].headers['Retry-After'];
    expect(header.schema).toEqual({ type: 'string' });
    expect(header.description).toMatch(/HTTP-date/);
  });

  it("adds the observed default order to a search operation's body", () => {
    const body = operation(adapt(recorded('default-order:searchFamilies', 'name')), 'searchFamilies').requestBody;
    expect(body.description).toMatch(/Without `sortBy` the list is ordered by `name` ascending/);
    expectObserved(body, 'default-order:searchFamilies', 'id');
  });

  it('marks a decision observed with the value the contract inferred', () => {
    const same = { ...recorded('success-status:createApiKey', 200), observed: 201, differs: false };
    const responses = operation(adapt(same as RecordedDecision), 'createApiKey').responses;
    expectObserved(responses['201'], 'success-status:createApiKey', 201);
  });
});
