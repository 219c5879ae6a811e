import { afterAll, beforeAll } from 'vitest';
import { decisionFile } from '../../../spec/decisions/test/decision-file.js';
import { injectHarness, type InjectHarness } from '../../test/harness.js';

/** A mock answering as the contract infers and one that adopted `observed` (values by point id). */
interface SideBySide {
  inferred: InjectHarness;
  observed: InjectHarness;
}

/** The two mocks of a describe block, started before its tests and closed after them. */
export function sideBySide(observed: Record<string, unknown>): SideBySide {
  const mocks = {} as SideBySide;
  beforeAll(async () => {
    mocks.inferred = await injectHarness();
    mocks.observed = await injectHarness({ decisions: decisionFile(observed) });
  });
  afterAll(async () => {
    await mocks.inferred?.close();
    await mocks.observed?.close();
  });
  return mocks;
}
