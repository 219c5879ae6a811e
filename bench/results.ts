import type { LoadRun } from './load.js';
import type { TargetName } from './targets/index.js';

/** Medians over the measured rounds of one target (sums for counts), with every round. */
export interface LoadTargetResult {
  reqPerSec: number | null;
  p50Ms: number | null;
  p90Ms: number | null;
  p99Ms: number | null;
  meanMs: number | null;
  responses: number;
  errors: number;
  unexpected: number;
  statusCounts: Record<string, number>;
  rounds: LoadRun[];
}

interface Base {
  name: string;
  description: string;
}

export interface OkResult extends Base {
  status: 'ok';
  /** Wall time of the scenario, seconds. */
  wallS: number;
  /** The headline numbers (flat; null where not measurable). */
  metrics: Record<string, number | null>;
  /** Per-target load results of load scenarios. */
  targets?: Partial<Record<TargetName, LoadTargetResult>>;
  details?: Record<string, unknown>;
  notes: string[];
}

export interface SkippedResult extends Base {
  status: 'skipped';
  reason: string;
}

export interface FailedResult extends Base {
  status: 'failed';
  error: string;
}

export type ScenarioResult = OkResult | SkippedResult | FailedResult;

export interface Machine {
  cores: number;
  cpuModel: string;
  node: string;
  platform: string;
  arch: string;
  totalMemoryMb: number;
  date: string;
  /** 1-minute load average when the run started and when it ended (other work on the machine skews the numbers). */
  loadAverageStart: number;
  loadAverageEnd: number;
}

export interface Results {
  machine: Machine;
  mode: 'full' | 'quick';
  settings: Record<string, unknown>;
  scenarios: Record<string, ScenarioResult>;
  /** Targets of the kit, compared with the numbers (informational). */
  goals: Goal[];
}

export interface Goal {
  goal: string;
  value: number | null;
  unit: string;
  met: boolean | null;
}
