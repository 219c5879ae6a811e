import type { FilterOperator } from '../../spec/lists/operators.js';
import { filterableFields, label, listOperations } from '../contract.js';
import type { CheckContext, CheckDef } from '../context.js';
import { readList, type ListData } from '../helpers.js';
import { buildCase } from './filters-case.js';
import { CLAUSE, intersection, resultSet, same, twins, union } from './filters-support.js';

/** Conditions on distinct fields whose server answers are non-empty proper subsets of the list. */
async function combinationCases(c: CheckContext, data: ListData): Promise<{ text: string; ids: Set<string> }[]> {
  const picked: { text: string; ids: Set<string> }[] = [];
  for (const field of filterableFields(data.op)) {
    if (picked.length >= 4) break;
    for (const operator of ['Equals', 'Contains', 'Gt', 'IsAfter', 'StartsWith'] as FilterOperator[]) {
      if (!field.operators.includes(operator)) continue;
      const fc = buildCase(data.items, field, operator);
      if (typeof fc === 'string') continue;
      const set = await resultSet(c, data, fc.text);
      if (set && set.ids.size > 0 && set.ids.size < data.totalCount) {
        picked.push({ text: fc.text, ids: set.ids });
        break;
      }
    }
  }
  return picked;
}

export function combinationChecks(): CheckDef[] {
  return [
    ...twins('filters.and-or', '`&&` intersects and `||` unites the conditions', CLAUSE, async (c, data) => {
      const cases = await combinationCases(c, data);
      const [a, b] = cases;
      if (!a || !b) return c.cannot(`${label(data.op)}: fewer than two selective conditions`);
      const and = await resultSet(c, data, `${a.text}&&${b.text}`);
      const or = await resultSet(c, data, `${a.text}||${b.text}`);
      if (and) {
        c.exercised(`${label(data.op)} A&&B`);
        c.expect(
          same(and.ids, intersection(a.ids, b.ids)),
          `${label(data.op)}: ${a.text}&&${b.text} is not the intersection`,
          and.ex,
          `${intersection(a.ids, b.ids).size} items (A ∩ B)`,
          `${and.ids.size} items`,
        );
      }
      if (or) {
        c.exercised(`${label(data.op)} A||B`);
        c.expect(
          same(or.ids, union(a.ids, b.ids)),
          `${label(data.op)}: ${a.text}||${b.text} is not the union`,
          or.ex,
          `${union(a.ids, b.ids).size} items (A ∪ B)`,
          `${or.ids.size} items`,
        );
      }
    }),
    ...twins('filters.parentheses', 'Parentheses group conditions', CLAUSE, async (c, data) => {
      const [a, b, cc] = await combinationCases(c, data);
      if (!a || !b || !cc) return c.cannot(`${label(data.op)}: fewer than three selective conditions`);
      const grouped = await resultSet(c, data, `(${a.text}||${b.text})&&${cc.text}`);
      if (grouped) {
        c.exercised(`${label(data.op)} (A||B)&&C`);
        const expected = intersection(union(a.ids, b.ids), cc.ids);
        c.expect(
          same(grouped.ids, expected),
          `${label(data.op)}: (A||B)&&C`,
          grouped.ex,
          `${expected.size} items ((A ∪ B) ∩ C)`,
          `${grouped.ids.size} items`,
        );
      }
      const right = await resultSet(c, data, `${a.text}&&(${b.text}||${cc.text})`);
      if (right) {
        c.exercised(`${label(data.op)} A&&(B||C)`);
        const expected = intersection(a.ids, union(b.ids, cc.ids));
        c.expect(
          same(right.ids, expected),
          `${label(data.op)}: A&&(B||C)`,
          right.ex,
          `${expected.size} items (A ∩ (B ∪ C))`,
          `${right.ids.size} items`,
        );
      }
    }),
    {
      id: 'filters.precedence',
      title: '`&&` binds tighter than `||`',
      family: 'filters',
      clause: `${CLAUSE} (precedence is not stated)`,
      level: 'SHOULD',
      run: async (c) => {
        await Promise.all(
          listOperations()
            .filter((op) => filterableFields(op).length > 0)
            .map(async (op) => {
              const data = await readList(c, op);
              if (typeof data === 'string') return c.cannot(data);
              const cases = await combinationCases(c, data);
              // A||B&&C differs from (A||B)&&C only on items of A outside C.
              for (const a of cases)
                for (const cc of cases) {
                  if (a === cc || [...a.ids].every((x) => cc.ids.has(x))) continue;
                  const b = cases.find((x) => x !== a && x !== cc);
                  if (!b) continue;
                  const got = await resultSet(c, data, `${a.text}||${b.text}&&${cc.text}`);
                  if (!got) return;
                  c.exercised(label(op));
                  const expected = union(a.ids, intersection(b.ids, cc.ids));
                  c.expect(
                    same(got.ids, expected),
                    `${label(op)}: A||B&&C is not A||(B&&C)`,
                    got.ex,
                    `${expected.size} items (A ∪ (B ∩ C))`,
                    `${got.ids.size} items`,
                  );
                  return;
                }
              c.cannot(`${label(op)}: no conditions whose precedence changes the result`);
            }),
        );
      },
    },
  ];
}
