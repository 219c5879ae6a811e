import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILTER_OPERATORS } from '../../spec/lists/operators.js';
import { operation } from '../../spec/operations/index.js';
import { injectHarness, type InjectHarness, type Reply } from './harness.js';
import { binaryString } from '../../test/support/arbitraries.js';

const LIST_CODES = [
  'COMMON.QUERY.FILTER_PARSING_FAILED',
  'COMMON.QUERY.SORTING_PARSING_FAILED',
  'COMMON.VALIDATION.ERROR',
];
const SKU_FIELDS = operation('listSkus').list!.fields.map((f) => f.name);
const FAMILY_FIELDS = operation('searchFamilies').list!.fields.map((f) => f.name);

/** Filter text built from pieces of the language (fields, operators, values, connectors), valid or not. */
function filterText(fields: readonly string[]): fc.Arbitrary<string> {
  const field = fc.oneof(
    fc.constantFrom(...fields),
    fc.constantFrom('CreatedAt', 'NAME', 'nope', 'a.b', '_x', ''),
    fc.string({ maxLength: 6 }),
  );
  const operator = fc.oneof(
    fc.constantFrom(...FILTER_OPERATORS),
    fc.constantFrom('contains', 'EQUALS', 'Between', ''),
    fc.string({ maxLength: 6 }),
  );
  const value = fc.oneof(
    fc.constant(''),
    fc.integer({ min: -1000, max: 100_000 }).map(String),
    fc.double({ noNaN: false }).map(String),
    fc.constantFrom(
      '2024-01-31',
      '2024-02-30',
      '2024-01-31T10:00:00Z',
      '2024-01-31T10:00:00+02:00',
      'true',
      'Active',
      'null',
      '"quoted && value"',
      '"unterminated',
      '\\"',
      ')',
      '(',
    ),
    fc.string({ maxLength: 12 }),
  );
  const condition = fc.tuple(field, operator, value).map(([f, o, v]) => `${f}[${o}]${v}`);
  const connector = fc.constantFrom('&&', '||', ' && ', ' || ', '&', '|', ')', '(', ' ');
  const combined = fc
    .array(fc.tuple(connector, fc.boolean(), condition), { maxLength: 4 })
    .chain((rest) =>
      condition.map((first) =>
        rest.reduce((text, [c, paren, cond]) => (paren ? `(${text})${c}${cond}` : `${text}${c}${cond}`), first),
      ),
    );
  return fc.oneof(combined, binaryString({ maxLength: 60 }), fc.string({ unit: 'grapheme-ascii', maxLength: 60 }));
}

function sortText(fields: readonly string[]): fc.Arbitrary<string> {
  const segment = fc.tuple(
    fc.constantFrom('', '-', '--', ' -', '+'),
    fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 8 })),
  );
  return fc.oneof(
    fc
      .array(segment, { minLength: 1, maxLength: 3 })
      .map((segments) => segments.map(([sign, name]) => `${sign}${name}`).join(',')),
    binaryString({ maxLength: 30 }),
  );
}

const pageParam = fc.oneof(
  fc.integer({ min: -5, max: 1005 }).map(String),
  fc.constantFrom('', '01', '1.0', '1e3', ' 1', '+1', '9007199254740993', 'NaN'),
  fc.string({ maxLength: 5 }),
);

/** The invariant every list response keeps: a valid page, or a 400 with one of the three list codes. */
function expectListAnswer(reply: Reply): void {
  expect(reply.status, reply.text).toBeLessThan(500);
  if (reply.status === 200) {
    const { results, pageNumber, pageSize, totalPages, totalCount } = reply.body;
    expect(results.length).toBeLessThanOrEqual(pageSize);
    expect(totalPages).toBe(totalCount === 0 ? 0 : Math.ceil(totalCount / pageSize));
    expect(results.length).toBe(Math.max(0, Math.min(pageSize, totalCount - (pageNumber - 1) * pageSize)));
  } else {
    expect(reply.status, reply.text).toBe(400);
    expect(reply.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(LIST_CODES).toContain(reply.body.code);
  }
}

describe('random list parameters', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  it('never give a 5xx on GET /v1/items/skus: always a page or a 400 list problem, valid per the contract', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            filterBy: filterText(SKU_FIELDS),
            sortBy: sortText(SKU_FIELDS),
            pageNumber: pageParam,
            pageSize: pageParam,
          },
          { requiredKeys: [] },
        ),
        async (params) => {
          const query = new URLSearchParams(params as Record<string, string>).toString();
          const reply = await h.call('GET', `/v1/items/skus${query ? `?${query}` : ''}`, { op: 'listSkus' });
          expectListAnswer(reply);
        },
      ),
      { numRuns: 150, seed: 20240531 },
    );
  });

  it('never give a 5xx on the family search body either', async () => {
    const bodyValue = fc.oneof(
      fc.integer({ min: -5, max: 1005 }),
      fc.string({ maxLength: 4 }),
      fc.constant(null),
      fc.boolean(),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            filterBy: filterText(FAMILY_FIELDS),
            sortBy: sortText(FAMILY_FIELDS),
            pageNumber: bodyValue,
            pageSize: bodyValue,
          },
          { requiredKeys: [] },
        ),
        async (body) => {
          const reply = await h.call('POST', '/v1/items/families/search', { body, op: 'searchFamilies' });
          expectListAnswer(reply);
        },
      ),
      { numRuns: 40, seed: 20240601 },
    );
  });

  it('answers repeated parameters with a page or a list problem', async () => {
    for (const query of [
      'filterBy=a&filterBy=b',
      'sortBy=name&sortBy=id',
      'pageSize=1&pageSize=2',
      'pageNumber=1&pageNumber=1',
    ]) {
      const reply = await h.call('GET', `/v1/items/skus?${query}`, { op: 'listSkus' });
      expectListAnswer(reply);
    }
  });
});
