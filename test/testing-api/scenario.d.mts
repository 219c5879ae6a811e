import type { startMock } from 'opsapi/testing';

/** What the scenario saw (scenario.mjs). */
export interface ScenarioSummary {
  readonly distinctUrls: boolean;
  readonly listed: number;
  readonly delivered: { readonly eventName: string; readonly verified: boolean };
}

/** Runs the scenario with a `startMock` from wherever the caller imported the package. */
export function scenario(start: typeof startMock): Promise<ScenarioSummary>;
