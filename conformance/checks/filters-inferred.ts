import { expected } from '../decided.js';
import { filterableFields, label, listOperations } from '../contract.js';
import type { CheckContext, CheckDef } from '../context.js';
import { identity, readList, type ListData } from '../helpers.js';
import { buildCase } from './filters-case.js';
import { CLAUSE, resultSet, same } from './filters-support.js';

/** Filter details the reference leaves open (SHOULD at most). */
export function inferredChecks(): CheckDef[] {
  const ops = () => listOperations().filter((op) => filterableFields(op).length > 0);
  const each = async (c: CheckContext, fn: (data: ListData) => Promise<void>) => {
    await Promise.all(
      ops().map(async (op) => {
        const data = await readList(c, op);
        if (typeof data === 'string') return c.cannot(data);
        await fn(data);
      }),
    );
  };
  return [
    {
      id: 'filters.contains-case-insensitive',
      title: 'Contains, StartsWith and EndsWith ignore case (or match it, as observed under --decisions)',
      family: 'filters',
      clause: `${CLAUSE} (case sensitivity is not stated)`,
      level: 'SHOULD',
      run: (c) =>
        each(c, async (data) => {
          for (const field of filterableFields(data.op).filter((f) => f.operators.includes('Contains'))) {
            const fc = buildCase(data.items, field, 'Contains');
            if (typeof fc === 'string') continue;
            const part = fc.text.slice(fc.text.indexOf(']') + 1);
            const swapped = [...part]
              .map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase()))
              .join('');
            if (swapped === part) continue;
            const got = await resultSet(c, data, `${field.name}[Contains]${swapped}`);
            if (!got) continue;
            c.exercised(`${label(data.op)} ${field.name}`);
            if (expected<'text-case'>(c.run, 'text-case', 'insensitive') === 'sensitive') {
              // The deployment was observed to compare case-sensitively (--decisions): only exact-case matches.
              const exact = new Set(
                data.items.filter((i) => String(i[field.name] ?? '').includes(swapped)).map((i) => identity(i)),
              );
              const extra = [...got.ids].filter((id) => !exact.has(id));
              c.expect(
                extra.length === 0,
                `${label(data.op)} filterBy=${field.name}[Contains]${swapped}: matches of another case (observed: case-sensitive)`,
                got.ex,
                `${exact.size} items`,
                `${got.ids.size} items`,
              );
              continue;
            }
            const lenient = data.items.filter(fc.lenient);
            const missing = lenient.filter((i) => !got.ids.has(identity(i)));
            c.expect(
              missing.length === 0,
              `${label(data.op)} filterBy=${field.name}[Contains]${swapped}: case-insensitive matches missing`,
              got.ex,
              `${lenient.length} items`,
              `${got.ids.size} items`,
            );
          }
        }),
    },
    {
      id: 'filters.field-name-case',
      title: 'Field names in filters ignore case',
      family: 'filters',
      clause: `${CLAUSE} (case of field names is not stated)`,
      level: 'SHOULD',
      run: (c) =>
        each(c, async (data) => {
          const field = filterableFields(data.op).find(
            (f) => f.operators.includes('IsNotNull') && /^[a-z]/.test(f.name),
          );
          if (!field) return c.cannot(`${label(data.op)}: no lower-case field name`);
          const lower = await resultSet(c, data, `${field.name}[IsNotNull]`);
          const upper = await resultSet(c, data, `${field.name[0]?.toUpperCase()}${field.name.slice(1)}[isnotnull]`);
          if (!lower || !upper) return;
          c.exercised(label(data.op));
          c.expect(
            same(lower.ids, upper.ids),
            `${label(data.op)}: ${field.name} and its capitalised form select different items`,
            upper.ex,
            `${lower.ids.size} items`,
            `${upper.ids.size} items`,
          );
        }),
    },
    {
      id: 'filters.date-only-day',
      title: 'A date-only value compares whole UTC days',
      family: 'filters',
      clause: `${CLAUSE} (date values are not specified)`,
      level: 'SHOULD',
      run: (c) =>
        each(c, async (data) => {
          const field = filterableFields(data.op).find((f) => f.type === 'date');
          if (!field) return c.cannot(`${label(data.op)} has no date field`);
          const value = data.items
            .map((i) => i[field.name])
            .find((v): v is string => typeof v === 'string' && v.length > 10);
          if (!value || !data.complete) return c.cannot(`${label(data.op)}: no ${field.name} value`);
          const day = new Date(Date.parse(value)).toISOString().slice(0, 10);
          const got = await resultSet(c, data, `${field.name}[Equals]${day}`);
          if (!got) return;
          c.exercised(label(data.op));
          const expected = new Set(
            data.items
              .filter(
                (i) =>
                  typeof i[field.name] === 'string' &&
                  new Date(Date.parse(i[field.name] as string)).toISOString().slice(0, 10) === day,
              )
              .map(identity),
          );
          c.expect(
            same(got.ids, expected),
            `${label(data.op)} filterBy=${field.name}[Equals]${day}`,
            got.ex,
            `${expected.size} items of that UTC day`,
            `${got.ids.size} items`,
          );
        }),
    },
  ];
}
