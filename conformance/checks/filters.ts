import { FILTER_OPERATORS, type FilterOperator } from '../../spec/lists/operators.js';
import { label } from '../contract/contract.js';
import type { CheckContext, CheckDef } from '../context.js';
import { identity, isSuccess, listSpec, pageOf, problemOf, type ListData } from '../helpers.js';
import { buildCase, type FilterCase, type Item } from '../observe/filter-case.js';
import { combinationChecks } from './filters-combinations.js';
import { inferredChecks } from './filters-inferred.js';
import { CLAUSE, CODE, filtered, onEveryFilter } from './filters-support.js';

function kebab(op: FilterOperator): string {
  return op.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
}

/**
 * The answer to a case and the items it must select. When the answer misses some of them, the list is read again
 * afresh: a list whose items changed meanwhile (a notification's status moving on as its deliveries complete) is
 * judged once more on the fresh answer against the fresh items, so a change of state is never taken for a wrong
 * filter.
 */
async function answerOf(c: CheckContext, data: ListData, fc: FilterCase) {
  const ex = await filtered(c, data, fc.text);
  const expected = data.items.filter(fc.strict);
  const page = pageOf(ex);
  const got = new Set(page?.results.map(identity) ?? []);
  if (!page || expected.every((i) => got.has(identity(i)))) return { ex, page, expected };
  const now = pageOf(await c.send(listSpec(data.op, data.path, { pageSize: 1000 })));
  const fresh = now?.results.filter(fc.strict);
  if (!fresh || sameIds(fresh, expected)) return { ex, page, expected };
  const again = await c.send(listSpec(data.op, data.path, { filterBy: fc.text, pageSize: 1000 }));
  return { ex: again, page: pageOf(again), expected: fresh };
}

const sameIds = (a: Item[], b: Item[]) => {
  const ids = new Set(a.map(identity));
  return a.length === b.length && b.every((i) => ids.has(identity(i)));
};

/** Runs one case: the results satisfy it (lenient reading) and, when the list was read whole, include every item it must select. */
async function verifyCase(c: CheckContext, data: ListData, fc: FilterCase): Promise<void> {
  const { ex, page, expected } = await answerOf(c, data, fc);
  const where = `${label(data.op)} filterBy=${fc.text}`;
  if (!c.expect(isSuccess(ex) && page !== undefined, where, ex, 'a 2xx with a page', String(ex.status)) || !page)
    return;
  if (expected.length === 0) return c.cannot(`${where}: no item to select`);
  c.exercised(where);
  // The value was taken from an item that satisfies the condition: an empty answer is never right.
  if (
    !c.expect(
      page.results.length > 0,
      `${where}: no item returned`,
      ex,
      `at least ${Math.min(expected.length, 1000)} item(s), such as ${identity(expected[0] as Item)}`,
      '0 items',
    )
  )
    return;
  const wrong = page.results.filter((i) => !fc.lenient(i));
  c.expect(
    wrong.length === 0,
    `${where}: items that do not satisfy the condition were returned`,
    ex,
    `every item satisfies ${fc.text}`,
    wrong
      .slice(0, 3)
      .map((i) => `${identity(i)}: ${JSON.stringify(i[fc.field.name])}`)
      .join('; '),
  );
  if (data.complete && page.totalCount <= 1000) {
    const got = new Set(page.results.map(identity));
    const missing = expected.filter((i) => !got.has(identity(i)));
    c.expect(
      missing.length === 0,
      `${where}: items that satisfy the condition are missing`,
      ex,
      `${expected.length} items including ${missing.slice(0, 3).map(identity).join(', ')}`,
      `${page.results.length} items`,
    );
  }
}

function operatorChecks(): CheckDef[] {
  return FILTER_OPERATORS.map((operator) =>
    onEveryFilter(
      `filters.${kebab(operator)}`,
      `${operator} selects exactly the items it names, on every field the target offers it on`,
      `${CLAUSE} (${operator})`,
      async (c, data, profile) => {
        const fields = profile.filterable.filter((f) => f.operators.includes(operator));
        if (fields.length === 0) return c.cannot(`${label(data.op)}: the target offers ${operator} on no field`);
        await Promise.all(
          fields.map(async (field) => {
            const fc = buildCase(data.items, field, operator);
            if (typeof fc === 'string') return c.cannot(`${label(data.op)}: ${fc}`);
            await verifyCase(c, data, fc);
          }),
        );
      },
    ),
  );
}

function errorChecks(): CheckDef[] {
  return [
    onEveryFilter(
      'filters.unknown-column',
      'A filter naming an unknown column gives 400 COMMON.QUERY.FILTER_PARSING_FAILED',
      `${CLAUSE}; Errors / Status and code pairs (400)`,
      async (c, data) => {
        const ex = await filtered(c, data, 'conformNoSuchColumn[Equals]x');
        c.exercised(label(data.op));
        const code = problemOf(ex)?.code;
        c.expect(
          ex.status === 400 && code === CODE,
          `${label(data.op)} filterBy=conformNoSuchColumn[Equals]x`,
          ex,
          `400 ${CODE}`,
          `${ex.status} ${String(code)}`,
        );
      },
    ),
    onEveryFilter(
      'filters.syntax-error',
      'A filter that cannot be parsed gives 400 COMMON.QUERY.FILTER_PARSING_FAILED',
      `${CLAUSE}; Errors / Status and code pairs (400)`,
      async (c, data, profile) => {
        const field = profile.filterable[0];
        if (!field) return c.cannot(`${label(data.op)} has no filterable field`);
        for (const text of [
          `${field.query}[Equals`,
          `(${field.query}[IsNotNull]`,
          `${field.query}[IsNotNull]&&`,
          `${field.query}[NoSuchOperator]x`,
        ]) {
          const ex = await filtered(c, data, text);
          c.exercised(`${label(data.op)} ${text}`);
          const code = problemOf(ex)?.code;
          c.expect(
            ex.status === 400 && code === CODE,
            `${label(data.op)} filterBy=${text}`,
            ex,
            `400 ${CODE}`,
            `${ex.status} ${String(code)}`,
          );
        }
      },
    ),
  ];
}

export function filterChecks(): CheckDef[] {
  return [...operatorChecks(), ...combinationChecks(), ...errorChecks(), ...inferredChecks()];
}
