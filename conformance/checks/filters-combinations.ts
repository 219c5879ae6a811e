import type { FilterOperator } from '../../spec/lists/operators.js';
import { label, listOperations } from '../contract/contract.js';
import type { CheckContext, CheckDef } from '../context.js';
import type { ListData } from '../helpers.js';
import { expected } from '../contract/decided.js';
import { listProfile, type ListProfile } from '../observe/list-profile.js';
import { eachList } from './lists-support.js';
import { buildCase } from '../observe/filter-case.js';
import {
  CLAUSE,
  combined,
  intersection,
  judgeCombination,
  onEveryFilter,
  resultSet,
  same,
  union,
} from './filters-support.js';

/** Conditions on distinct fields whose server answers are non-empty proper subsets of the list. */
async function combinationCases(
  c: CheckContext,
  data: ListData,
  profile: ListProfile,
): Promise<{ text: string; ids: Set<string> }[]> {
  const picked: { text: string; ids: Set<string> }[] = [];
  for (const field of profile.filterable) {
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
    onEveryFilter(
      'filters.and-or',
      '`&&` intersects and `||` unites the conditions',
      CLAUSE,
      async (c, data, profile) => {
        const cases = await combinationCases(c, data, profile);
        const [a, b] = cases;
        if (!a || !b) return c.cannot(`${label(data.op)}: fewer than two selective conditions`);
        const and = await combined(c, data, [a, b], `${a.text}&&${b.text}`, ([x, y]) => intersection(x!, y!));
        const or = await combined(c, data, [a, b], `${a.text}||${b.text}`, ([x, y]) => union(x!, y!));
        judgeCombination(c, data, and, 'A&&B', `${a.text}&&${b.text} is not the intersection`);
        judgeCombination(c, data, or, 'A||B', `${a.text}||${b.text} is not the union`);
      },
    ),
    onEveryFilter('filters.parentheses', 'Parentheses group conditions', CLAUSE, async (c, data, profile) => {
      const [a, b, cc] = await combinationCases(c, data, profile);
      if (!a || !b || !cc) return c.cannot(`${label(data.op)}: fewer than three selective conditions`);
      const grouped = await combined(c, data, [a, b, cc], `(${a.text}||${b.text})&&${cc.text}`, ([x, y, z]) =>
        intersection(union(x!, y!), z!),
      );
      const right = await combined(c, data, [a, b, cc], `${a.text}&&(${b.text}||${cc.text})`, ([x, y, z]) =>
        intersection(x!, union(y!, z!)),
      );
      judgeCombination(c, data, grouped, '(A||B)&&C', '(A||B)&&C');
      judgeCombination(c, data, right, 'A&&(B||C)', 'A&&(B||C)');
    }),
    {
      id: 'filters.precedence',
      title: '`&&` binds tighter than `||`',
      family: 'filters',
      clause: `${CLAUSE} (precedence is not stated)`,
      level: 'SHOULD',
      run: async (c) => {
        await eachList(c, listOperations(), async (data) => {
          const op = data.op;
          const profile = await listProfile(c, data);
          const cases = await combinationCases(c, data, profile);
          // A||B&&C differs from (A||B)&&C only on items of A outside C.
          for (const a of cases)
            for (const cc of cases) {
              if (a === cc || [...a.ids].every((x) => cc.ids.has(x))) continue;
              const b = cases.find((x) => x !== a && x !== cc);
              if (!b) continue;
              const got = await resultSet(c, data, `${a.text}||${b.text}&&${cc.text}`);
              if (!got) return;
              c.exercised(label(op));
              // The contract's precedence (`&&` first), or the one the deployment was observed to have.
              const leftToRight =
                expected<'filter-precedence'>(c.run, 'filter-precedence', 'and-first') === 'left-to-right';
              const want = leftToRight
                ? intersection(union(a.ids, b.ids), cc.ids)
                : union(a.ids, intersection(b.ids, cc.ids));
              c.expect(
                same(got.ids, want),
                `${label(op)}: A||B&&C is not ${leftToRight ? '(A||B)&&C (observed)' : 'A||(B&&C)'}`,
                got.ex,
                `${want.size} items (${leftToRight ? '(A ∪ B) ∩ C' : 'A ∪ (B ∩ C)'})`,
                `${got.ids.size} items`,
              );
              return;
            }
          c.cannot(`${label(op)}: no conditions whose precedence changes the result`);
        });
      },
    },
  ];
}
