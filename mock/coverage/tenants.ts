import type { Coverage } from './schema.js';
import type { TenantState } from '../store/tenant-state.js';
import { CoverageRecorder } from './recorder.js';
import { restrictCoverage } from './report.js';

/**
 * The coverage recorder of each tenant state. Keyed by the state object, not the org: a reset or an eviction
 * drops the state, so the next state of the org starts with fresh counts, like its journal (reset with the tenant),
 * and a dropped state's recorder is collected with it.
 */
const recorders = new WeakMap<TenantState, CoverageRecorder>();

/** The recorder of a tenant state, made on first use. */
export function recorderOf(tenant: TenantState): CoverageRecorder {
  let recorder = recorders.get(tenant);
  if (!recorder) {
    recorder = new CoverageRecorder();
    recorders.set(tenant, recorder);
  }
  return recorder;
}

/** A tenant's coverage, restricted to some operations when asked (ids checked by the caller); zero for no tenant. */
export function coverageOf(tenant: TenantState | undefined, operationIds?: readonly string[]): Coverage {
  const coverage = (tenant ? recorderOf(tenant) : new CoverageRecorder()).report();
  return operationIds ? restrictCoverage(coverage, operationIds) : coverage;
}
