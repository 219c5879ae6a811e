import { expected as expectedValue } from '../contract/decided.js';
import { expected } from '../contract/decided.js';
import { label, listOperations } from '../contract/contract.js';
import type { CheckContext, CheckDef } from '../context.js';
import { identity, type ListData } from '../helpers.js';
import { listProfile, type ListProfile } from '../observe/list-profile.js';
import { eachList } from './lists-support.js';
import { buildCase } from '../observe/filter-case.js';
import { CLAUSE, filtered, resultSet, same } from './filters-support.js';

/** Filter details the reference leaves open (SHOULD at most). */
export function inferredChecks(): CheckDef[] {
  const each = (c: CheckContext, fn: (data: ListData, profile: ListProfile) => Promise<void>) =>
    eachList(c, listOperations(), async (data) => {
      const profile = await listProfile(c, data);
      if (profile.filterable.length === 0) return c.cannot(`${label(data.op)}: the target filters by no field`);
      await fn(data, profile);
    });
  return [
    {
      id: 'filters.contains-case-insensitive',
      title: 'Contains, StartsWith and EndsWith ignore case (or match it, as observed under --decisions)',
      family: 'filters',
      clause: `${CLAUSE} (case sensitivity is not stated)`,
      level: 'SHOULD',
      run: (c) =>
        each(c, async (data, profile) => {
          for (const field of profile.filterable.filter((f) => f.operators.includes('Contains'))) {
            const fc = buildCase(data.items, field, 'Contains');
            if (typeof fc === 'string') continue;
            const part = fc.text.slice(fc.text.indexOf(']') + 1);
            const swapped = [...part]
              .map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase()))
              .join('');
            if (swapped === part) continue;
            const got = await resultSet(c, data, `${field.query}[Contains]${swapped}`);
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
                `${label(data.op)} filterBy=${field.query}[Contains]${swapped}: matches of another case (observed: case-sensitive)`,
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
              `${label(data.op)} filterBy=${field.query}[Contains]${swapped}: case-insensitive matches missing`,
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
        each(c, async (data, profile) => {
          const field = profile.filterable.find((f) => f.operators.includes('IsNotNull') && /^[a-z]/i.test(f.query));
          if (!field) return c.cannot(`${label(data.op)}: no field takes IsNotNull`);
          const flip = (name: string) =>
            `${/^[a-z]/.test(name) ? name[0]?.toUpperCase() : name[0]?.toLowerCase()}${name.slice(1)}`;
          if (expectedValue<'field-name-case'>(c.run, 'field-name-case', 'insensitive') === 'sensitive') {
            // The deployment was observed to take field names only as it spells them (--decisions).
            const other = await filtered(c, data, `${flip(field.query)}[IsNotNull]`);
            c.exercised(label(data.op));
            c.expect(
              other.status >= 400 && other.status < 500,
              `${label(data.op)}: ${flip(field.query)} was taken (observed: field names are case-sensitive)`,
              other,
              'a 4xx',
              String(other.status),
            );
            return;
          }
          const lower = await resultSet(c, data, `${field.query}[IsNotNull]`);
          const upper = await resultSet(c, data, `${flip(field.query)}[isnotnull]`);
          if (!lower || !upper) return;
          c.exercised(label(data.op));
          c.expect(
            same(lower.ids, upper.ids),
            `${label(data.op)}: ${field.query} and ${flip(field.query)} select different items`,
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
        each(c, async (data, profile) => {
          const field = profile.filterable.find((f) => f.type === 'date' && f.operators.includes('Equals'));
          if (!field) return c.cannot(`${label(data.op)} has no date field`);
          const value = data.items
            .map((i) => i[field.name])
            .find((v): v is string => typeof v === 'string' && v.length > 10);
          if (!value || !data.complete) return c.cannot(`${label(data.op)}: no ${field.name} value`);
          const day = new Date(Date.parse(value)).toISOString().slice(0, 10);
          const got = await resultSet(c, data, `${field.query}[Equals]${day}`);
          if (!got) return;
          c.exercised(label(data.op));
          const instant = expectedValue<'date-only-equals'>(c.run, 'date-only-equals', 'whole-day') === 'instant';
          const expected = new Set(
            data.items
              .filter(
                (i) =>
                  typeof i[field.name] === 'string' &&
                  (instant
                    ? Date.parse(i[field.name] as string) === Date.parse(`${day}T00:00:00Z`)
                    : new Date(Date.parse(i[field.name] as string)).toISOString().slice(0, 10) === day),
              )
              .map(identity),
          );
          c.expect(
            same(got.ids, expected),
            `${label(data.op)} filterBy=${field.query}[Equals]${day}`,
            got.ex,
            `${expected.size} items of that UTC day`,
            `${got.ids.size} items`,
          );
        }),
    },
  ];
}
