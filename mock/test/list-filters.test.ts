import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClaims } from '../auth/presets.js';
import { expectProblem, freshOrg, injectHarness, type InjectHarness, type Reply } from './harness.js';
import { idOf, type Item, type Params } from './list-items.js';

const DAY_MS = 86_400_000;

/** The filter language on the SKU list (the other list behaviour: lists.test.ts). */
describe('lists', () => {
  let h: InjectHarness;
  let token: string;

  /** Calls the SKU list with list parameters in the query. */
  function list(operationId: 'listSkus', params: Params = {}): Promise<Reply> {
    const query = new URLSearchParams(
      Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    return h.call('GET', query ? `/v1/items/skus?${query}` : '/v1/items/skus', { token, op: operationId });
  }

  async function all(operationId: 'listSkus', params: Params = {}): Promise<{ items: Item[]; totalCount: number }> {
    const reply = await list(operationId, { pageSize: 1000, ...params });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.results).toHaveLength(reply.body.totalCount);
    return { items: reply.body.results, totalCount: reply.body.totalCount };
  }

  beforeAll(async () => {
    h = await injectHarness();
    token = await h.token(adminClaims(freshOrg('lists')));
  });

  afterAll(async () => {
    await h?.close();
  });

  describe('the filter language on the SKU list', () => {
    let skus: Item[];
    const sku = (i: number) => skus[i % skus.length]!;
    const str = (item: Item, name: string) => String(item[name]);

    beforeAll(async () => {
      skus = (await all('listSkus')).items;
      expect(skus).toHaveLength(h.mock.control.options.skus);
    });

    /** Asserts that a filter selects exactly the items of a predicate (and at least one, unless told). */
    async function expectFilter(
      filterBy: string,
      predicate: (item: Item) => boolean,
      allowEmpty = false,
    ): Promise<void> {
      const expected = skus.filter(predicate).map(idOf).sort();
      if (!allowEmpty) expect(expected.length, `${filterBy} selects something`).toBeGreaterThan(0);
      const got = await all('listSkus', { filterBy });
      expect(got.items.map(idOf).sort(), filterBy).toEqual(expected);
    }

    const word = () => {
      const name = skus.map((s) => str(s, 'name')).find((n) => /^[A-Za-z]{5,}/.test(n))!;
      return name.split(' ')[0]!;
    };

    it('matches Contains case-insensitively', async () => {
      const needle = word().slice(1, 4).toUpperCase();
      await expectFilter(`name[Contains]${needle}`, (s) => str(s, 'name').toLowerCase().includes(needle.toLowerCase()));
    });

    it('matches StartsWith case-insensitively', async () => {
      const needle = word().slice(0, 3).toLowerCase();
      await expectFilter(`name[StartsWith]${needle}`, (s) => str(s, 'name').toLowerCase().startsWith(needle));
    });

    it('matches EndsWith case-insensitively', async () => {
      const name = skus.map((s) => str(s, 'name')).find((n, i) => i >= 11 && /[A-Za-z0-9]{3}$/.test(n))!;
      const needle = name.slice(-3).toUpperCase();
      await expectFilter(`name[EndsWith]${needle}`, (s) => str(s, 'name').toLowerCase().endsWith(needle.toLowerCase()));
    });

    it('matches Equals exactly and case-sensitively', async () => {
      const name = str(sku(17), 'name');
      await expectFilter(`name[Equals]${name}`, (s) => s.name === name);
      const shouted = name.toUpperCase();
      await expectFilter(`name[Equals]${shouted}`, (s) => s.name === shouted, true);
    });

    it('matches IsNull and IsNotNull on description', async () => {
      await expectFilter('description[IsNull]', (s) => s.description === null);
      await expectFilter('description[IsNotNull]', (s) => s.description !== null);
    });

    it.each([
      { op: 'Gt', test: (v: number, x: number) => v > x },
      { op: 'Gte', test: (v: number, x: number) => v >= x },
      { op: 'Lt', test: (v: number, x: number) => v < x },
      { op: 'Lte', test: (v: number, x: number) => v <= x },
      { op: 'Equals', test: (v: number, x: number) => v === x },
    ])('compares totalStock with $op', async ({ op, test }) => {
      const values = skus.map((s) => s.totalStock as number).sort((a, b) => a - b);
      const x = values[Math.floor(values.length / 2)]!;
      await expectFilter(`totalStock[${op}]${x}`, (s) => test(s.totalStock as number, x));
    });

    describe('dates', () => {
      const median = () => {
        const sorted = [...skus].sort((a, b) => Date.parse(str(a, 'createdAt')) - Date.parse(str(b, 'createdAt')));
        return str(sorted[Math.floor(sorted.length / 2)]!, 'createdAt');
      };
      const ms = (s: Item) => Date.parse(str(s, 'createdAt'));

      it.each([
        {
          op: 'IsAfter',
          day: (v: number, _lo: number, hi: number) => v >= hi,
          instant: (v: number, x: number) => v > x,
        },
        { op: 'IsOnOrAfter', day: (v: number, lo: number) => v >= lo, instant: (v: number, x: number) => v >= x },
        { op: 'IsBefore', day: (v: number, lo: number) => v < lo, instant: (v: number, x: number) => v < x },
        {
          op: 'IsOnOrBefore',
          day: (v: number, _lo: number, hi: number) => v < hi,
          instant: (v: number, x: number) => v <= x,
        },
        {
          op: 'Equals',
          day: (v: number, lo: number, hi: number) => v >= lo && v < hi,
          instant: (v: number, x: number) => v === x,
        },
      ])('compares createdAt with $op on a date-only and on a date-time value', async ({ op, day, instant }) => {
        const at = median();
        const dayText = at.slice(0, 10);
        const lo = Date.parse(`${dayText}T00:00:00Z`);
        await expectFilter(`createdAt[${op}]${dayText}`, (s) => day(ms(s), lo, lo + DAY_MS));
        await expectFilter(`createdAt[${op}]${at}`, (s) => instant(ms(s), Date.parse(at)));
      });

      it('reads a date-time with an offset as its instant', async () => {
        const at = median();
        const shifted = new Date(Date.parse(at) + 2 * 3600_000)
          .toISOString()
          .replace(/\.\d{3}Z$/, '+02:00')
          .replace(/Z$/, '+02:00');
        await expectFilter(`createdAt[IsOnOrAfter]${shifted}`, (s) => ms(s) >= Date.parse(at));
      });

      it('takes the field name in PascalCase (CreatedAt)', async () => {
        const dayText = median().slice(0, 10);
        const camel = await all('listSkus', { filterBy: `createdAt[IsAfter]${dayText}` });
        const pascal = await all('listSkus', { filterBy: `CreatedAt[IsAfter]${dayText}` });
        expect(pascal.totalCount).toBeGreaterThan(0);
        expect(pascal.items).toEqual(camel.items);
      });
    });

    it('takes operator names in any case', async () => {
      const needle = word().slice(0, 3);
      await expectFilter(`name[contains]${needle}`, (s) => str(s, 'name').toLowerCase().includes(needle.toLowerCase()));
    });

    describe('combinations', () => {
      const x = () => [...skus].map((s) => s.totalStock as number).sort((a, b) => a - b)[Math.floor(skus.length / 2)]!;
      const a = (s: Item) => str(s, 'name').toLowerCase().includes('a');
      const big = (s: Item) => (s.totalStock as number) > x();
      const described = (s: Item) => s.description === null;

      it('combines conditions with &&', async () => {
        await expectFilter(`totalStock[Gt]${x()} && name[Contains]a`, (s) => big(s) && a(s));
      });

      it('combines conditions with ||', async () => {
        await expectFilter(`totalStock[Gt]${x()}||description[IsNull]`, (s) => big(s) || described(s));
      });

      it('binds && tighter than ||, and parentheses regroup', async () => {
        await expectFilter(
          `description[IsNull] || totalStock[Gt]${x()} && name[Contains]a`,
          (s) => described(s) || (big(s) && a(s)),
        );
        await expectFilter(
          `(description[IsNull] || totalStock[Gt]${x()}) && name[Contains]a`,
          (s) => (described(s) || big(s)) && a(s),
        );
      });

      it('reads && sent percent-encoded as %26%26 in the query string', async () => {
        const reply = await h.call(
          'GET',
          `/v1/items/skus?pageSize=1000&filterBy=totalStock%5BGt%5D${x()}%26%26name%5BContains%5Da`,
          { token, op: 'listSkus' },
        );
        expect(reply.status).toBe(200);
        const expected = skus
          .filter((s) => big(s) && a(s))
          .map(idOf)
          .sort();
        expect(reply.body.results.map(idOf).sort()).toEqual(expected);
      });

      it('takes double-quoted values, && inside quotes included', async () => {
        const name = str(sku(23), 'name');
        // A name may hold a quote (an inch mark: 3/4"), escaped inside the quoted value.
        await expectFilter(`name[Equals]"${name.replace(/["\\]/g, '\\$&')}"`, (s) => s.name === name);
        await expectFilter('name[Contains]"a && b"', (s) => str(s, 'name').toLowerCase().includes('a && b'), true);
        const reply = await list('listSkus', { filterBy: 'name[Contains]"a && b"' });
        expect(reply.status).toBe(200);
      });

      it('trims the spaces around an unquoted value', async () => {
        const needle = word().slice(0, 4);
        await expectFilter(`name[StartsWith]  ${needle}  `, (s) =>
          str(s, 'name').toLowerCase().startsWith(needle.toLowerCase()),
        );
      });
    });

    it.each([
      'noSuchColumn[Equals]1',
      'name[Contains',
      'name[Equals]x &&',
      '(name[Equals]x',
      '(name[Equals]x))',
      'name[Bogus]x',
      '[Equals]x',
      'name[Gt]5',
      'totalStock[Gt]abc',
      'createdAt[IsAfter]yesterday',
      'description[IsNull]x',
      'name[Contains]',
      '&& name[Equals]x',
      'status[Equals]Archived',
    ])('answers the filter %j with 400 COMMON.QUERY.FILTER_PARSING_FAILED', async (filterBy) => {
      const reply = await list('listSkus', { filterBy });
      expectProblem(reply, 400, 'COMMON.QUERY.FILTER_PARSING_FAILED', 'GET /v1/items/skus');
    });

    it.each(['noSuchField', 'name,', ',name', '-', 'name,-name', '--name', 'name desc'])(
      'answers the sort %j with 400 COMMON.QUERY.SORTING_PARSING_FAILED',
      async (sortBy) => {
        const reply = await list('listSkus', { sortBy });
        expectProblem(reply, 400, 'COMMON.QUERY.SORTING_PARSING_FAILED');
      },
    );

    it('sorts by several fields', async () => {
      const { items } = await all('listSkus', { sortBy: 'status,-totalStock' });
      for (let i = 1; i < items.length; i++) {
        const p = items[i - 1]!;
        const q = items[i]!;
        expect(str(p, 'status') <= str(q, 'status')).toBe(true);
        if (p.status === q.status) expect(p.totalStock as number).toBeGreaterThanOrEqual(q.totalStock as number);
      }
    });
  });
});
