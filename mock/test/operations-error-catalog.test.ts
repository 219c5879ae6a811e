import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, catalogEntry } from '../../spec/errors/index.js';
import { expectProblem, injectHarness, type InjectHarness } from './harness.js';

describe('the operations over state', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  describe('the error catalog', () => {
    it(`answers every one of the ${ERROR_CODES.length} codes with 200 and its entry`, async () => {
      expect(ERROR_CODES).toHaveLength(478);
      const codes = [...ERROR_CODES];
      for (let i = 0; i < codes.length; i += 20) {
        const batch = codes.slice(i, i + 20);
        const replies = await Promise.all(batch.map((code) => h.call('GET', `/v1/errors/${code}`, { op: 'getError' })));
        replies.forEach((reply, j) => {
          const code = batch[j]!;
          expect(reply.status, code).toBe(200);
          const entry = catalogEntry(code)!;
          expect(reply.body).toMatchObject({
            code,
            title: entry.title,
            description: entry.description,
            status: entry.status,
          });
          expect(reply.body.parameters.map((p: { key: string }) => p.key)).toEqual(entry.parameters.map((p) => p.key));
        });
      }
    });

    it('answers an unknown code with 404 COMMON.ENTITY.NOT_FOUND', async () => {
      const reply = await h.call('GET', '/v1/errors/COMMON.NO.SUCH_CODE', { op: 'getError' });
      expectProblem(reply, 404, 'COMMON.ENTITY.NOT_FOUND', 'GET /v1/errors/COMMON.NO.SUCH_CODE');
    });

    it('answers a code in the wrong case with 404', async () => {
      const reply = await h.call('GET', `/v1/errors/${ERROR_CODES[0]!.toLowerCase()}`, { op: 'getError' });
      expectProblem(reply, 404, 'COMMON.ENTITY.NOT_FOUND');
    });
  });
});
