import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ListField } from '../../../spec/lists/fields.js';
import { ListCollection } from '../collection.js';
import { runList } from '../engine.js';
import { compileFilterPlan } from '../filter/compile.js';
import { parseFilter } from '../filter/parser.js';
import {
  FIELDS,
  itemBody,
  itemsArb,
  isNullish,
  reference,
  exprArb,
  conditionArb,
  random,
  render,
  type Item,
} from './filter-model.js';
import { binaryString } from '../../../test/support/arbitraries.js';

function selected(source: ListCollection<Item> | Item[], filterBy: string, sortBy?: string): string[] {
  const result = runList(source, FIELDS, { filterBy, sortBy, pageSize: 1000 });
  if (!result.ok) throw new Error(`${result.error.detail} in ${JSON.stringify(filterBy)}`);
  expect(result.value.totalCount).toBe(result.value.results.length);
  return result.value.results.map((i) => i.id);
}

// ---------------------------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------------------------

describe('filter properties', () => {
  const grammarPiece = fc.constantFrom(
    'name',
    'NAME',
    'count',
    'createdAt',
    'status',
    'active',
    'nope',
    'a.b',
    '[',
    ']',
    '(',
    ')',
    '&',
    '&&',
    '|',
    '||',
    '"',
    '\\',
    ' ',
    '\t',
    'Equals',
    'contains',
    'IsNull',
    'isnotnull',
    'Gt',
    'Lte',
    'IsAfter',
    'Foo',
    '1',
    '-1.5',
    '1e3',
    '2024-01-31',
    '2024-01-31T10:00:00Z',
    'true',
    'Open',
    'x',
    'é',
    ',',
    '-',
  );
  const noisyText = fc.oneof(
    fc.string(),
    binaryString(),
    fc.array(grammarPiece, { maxLength: 25 }).map((p) => p.join('')),
  );

  it('never throws on arbitrary input and only ever fails with the documented error codes', () => {
    const items = [
      { id: 'x', name: 'n', count: 1, createdAt: '2024-01-31T00:00:00Z', active: true, status: 'Open' },
    ] as Item[];
    const collection = new ListCollection(items);
    fc.assert(
      fc.property(
        noisyText,
        noisyText,
        fc.oneof(fc.string(), fc.integer(), fc.constant(undefined)),
        (filterBy, sortBy, pageSize) => {
          const parsed = parseFilter(filterBy);
          if (parsed.ok) {
            if (parsed.value !== null) {
              const compiled = compileFilterPlan(parsed.value, FIELDS);
              if (compiled.ok) compiled.value.test(items[0]!);
              else expect(compiled.error.code).toBe('COMMON.QUERY.FILTER_PARSING_FAILED');
            }
          } else {
            expect(parsed.error.code).toBe('COMMON.QUERY.FILTER_PARSING_FAILED');
          }
          for (const source of [collection, items]) {
            const filtered = runList(source, FIELDS, { filterBy });
            if (!filtered.ok) expect(filtered.error.code).toBe('COMMON.QUERY.FILTER_PARSING_FAILED');
            const sorted = runList(source, FIELDS, { sortBy });
            if (!sorted.ok) expect(sorted.error.code).toBe('COMMON.QUERY.SORTING_PARSING_FAILED');
            const paged = runList(source, FIELDS, { pageSize });
            if (!paged.ok) expect(paged.error.code).toBe('COMMON.VALIDATION.ERROR');
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('selects exactly the items a naive evaluation of the generated expression selects', () => {
    const scenario = itemsArb.chain((items) =>
      fc.record({ items: fc.constant(items), expr: exprArb(items, 3), seed: fc.integer() }),
    );
    let matchedSomething = 0;
    fc.assert(
      fc.property(scenario, ({ items, expr, seed }) => {
        const filterBy = render(expr, random(seed));
        const parsed = parseFilter(filterBy);
        if (!parsed.ok) throw new Error(`${parsed.error.detail} in ${JSON.stringify(filterBy)}`);
        const expected = items.filter((item) => reference(expr, item)).map((i) => i.id);
        if (expected.length > 0) matchedSomething++;
        expect(selected(items, filterBy)).toEqual(expected);
        expect(selected(new ListCollection(items), filterBy)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
    // values are drawn from the items, so a good share of expressions must select something
    expect(matchedSomething).toBeGreaterThan(100);
  });

  it('selects as a naive evaluation does for long ORs, whose Equals terms on one field are merged into one lookup', () => {
    // Values drawn from the items: Equals terms often share a field and name a value some item holds.
    const scenario = itemsArb.chain((items) =>
      fc.record({
        items: fc.constant(items),
        terms: fc.array(conditionArb(items), { minLength: 2, maxLength: 12 }),
        seed: fc.integer(),
      }),
    );
    fc.assert(
      fc.property(scenario, ({ items, terms, seed }) => {
        const expr = { kind: 'or' as const, children: terms };
        const filterBy = render(expr, random(seed));
        const expected = items.filter((item) => reference(expr, item)).map((i) => i.id);
        expect(selected(items, filterBy)).toEqual(expected);
        expect(selected(new ListCollection(items), filterBy)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('sorts exactly like a naive multi-key comparator with an ascending id tiebreak', () => {
    const sortable = FIELDS.filter((f) => f.sortable && f.name !== 'id');
    const keyValue = (field: ListField, item: Item): string | number | boolean | null => {
      const raw = item[field.name];
      if (isNullish(raw)) return null;
      return field.type === 'date' ? Date.parse(raw as string) : (raw as string | number | boolean);
    };
    const specArb = fc
      .shuffledSubarray(sortable, { minLength: 1, maxLength: 3 })
      .chain((fields) =>
        fc.tuple(
          fc.constant(fields),
          fc.array(fc.boolean(), { minLength: fields.length, maxLength: fields.length }),
          fc.integer(),
        ),
      );
    fc.assert(
      fc.property(itemsArb, specArb, (items, [fields, descending, seed]) => {
        const rnd = random(seed);
        const sortBy = fields
          .map((f, i) => `${descending[i] ? '-' : ''}${rnd() < 0.5 ? f.name : f.name.toUpperCase()}`)
          .join(',');
        const expected = [...items]
          .sort((x, y) => {
            for (let k = 0; k < fields.length; k++) {
              const a = keyValue(fields[k]!, x);
              const b = keyValue(fields[k]!, y);
              let c = 0;
              if (a === null && b !== null) c = -1;
              else if (a !== null && b === null) c = 1;
              else if (a !== null && b !== null) c = a < b ? -1 : a > b ? 1 : 0;
              if (c !== 0) return descending[k] ? -c : c;
            }
            return x.id < y.id ? -1 : 1;
          })
          .map((i) => i.id);
        expect(selected(items, '', sortBy)).toEqual(expected);
        expect(selected(new ListCollection(items), '', sortBy)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a cached collection consistent with a fresh evaluation across random inserts, replacements and deletes', () => {
    const queries: Array<[string, string]> = [
      ['', ''],
      ['', '-name'],
      ['name[Contains]a', 'score'],
      ['count[IsNull]||flag[Equals]true', '-createdAt,name'],
      ['active[Equals]true&&score[Gt]0', 'status,-count'],
      ['createdAt[IsOnOrAfter]2024-01-31||note[IsNotNull]', '-lastModifiedAt,-priority'],
    ];
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), slot: fc.integer({ min: 0, max: 40 }), body: itemBody }),
      fc.record({ kind: fc.constant('delete' as const), slot: fc.integer({ min: 0, max: 40 }) }),
    );
    fc.assert(
      fc.property(
        itemsArb,
        fc.array(op, { maxLength: 25 }),
        fc.integer({ min: 1, max: 7 }),
        (initial, ops, pageSize) => {
          const collection = new ListCollection(initial);
          const current = new Map(initial.map((i) => [i.id, i]));
          const check = () => {
            const plain = [...current.values()];
            for (const [filterBy, sortBy] of queries) {
              for (let pageNumber = 1; pageNumber <= 3; pageNumber++) {
                const query = { filterBy, sortBy, pageSize, pageNumber };
                expect(runList(collection, FIELDS, query)).toEqual(runList(plain, FIELDS, query));
              }
            }
          };
          check();
          for (const o of ops) {
            const id = `i${String(o.slot).padStart(3, '0')}`;
            if (o.kind === 'set') {
              const item = { id, ...o.body } as Item;
              collection.set(item);
              current.set(id, item);
            } else {
              expect(collection.delete(id)).toBe(current.delete(id));
            }
            expect(collection.size).toBe(current.size);
            check();
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
