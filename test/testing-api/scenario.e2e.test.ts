import { describe, expect, it } from 'vitest';
import { startMock } from 'opsapi/testing';
import { startMock as fromSources } from '../../testing.js';
import { scenario } from './scenario.mjs';

describe('a client suite importing opsapi/testing by its package name', () => {
  it('gets the TypeScript sources under vitest (the source export condition), with no build', () => {
    expect(startMock).toBe(fromSources);
  });

  it('runs the scenario: two mocks that share no state, a key, a signed webhook, and close() with a listener open', async () => {
    expect(await scenario(startMock)).toEqual({
      distinctUrls: true,
      listed: 2,
      delivered: { eventName: 'Items.Sku.Created', verified: true },
    });
  });
});
