import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type TestMock } from 'opsapi/testing';

/** `t.token()` mints a token with a permission no operation requires, and emits a process warning naming it. */
describe('t.token with a permission no operation requires', () => {
  let mock: TestMock;
  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('warns once per call, naming the permission, and the token is minted', async () => {
    const warnings: string[] = [];
    const listen = (w: Error) => warnings.push(w.message);
    process.on('warning', listen);
    try {
      const t = mock.tenant();
      const token = await t.token({ permissions: ['Items.Skus.Read'] });
      expect(token.split('.')).toHaveLength(3);
      await t.token({ permissions: ['Warehouse.Counts.Write'] });
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.includes('t.token'))).toEqual([
        't.token: no operation requires the permission(s) Items.Skus.Read',
      ]);
    } finally {
      process.off('warning', listen);
    }
  });
});
