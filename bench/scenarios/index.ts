import type { ScenarioName } from '../config.js';
import { compactionScenario } from './compaction.js';
import { conformScenario } from './conform.js';
import { conformRemoteScenario } from './conform-remote.js';
import {
  list100kScenario,
  list10kScenario,
  listScenario,
  stockScenario,
  unauthorizedScenario,
} from './load-scenarios.js';
import { listVariedScenario } from './list-varied.js';
import { noisyNeighbourScenario } from './noisy-neighbour.js';
import { proxyScenario } from './proxy.js';
import { redisScenario } from './redis.js';
import { startCloseScenario } from './start-close.js';
import { startupScenario } from './startup.js';
import { tenantsScenario } from './tenants.js';
import type { ScenarioDef } from './types.js';
import { baselineScenario } from './baseline.js';
import { webhooksScenario } from './webhooks.js';

export const SCENARIO_DEFS: Record<ScenarioName, ScenarioDef> = {
  list: listScenario,
  'list-10k': list10kScenario,
  'list-100k': list100kScenario,
  'list-100k-varied': listVariedScenario,
  stock: stockScenario,
  unauthorized: unauthorizedScenario,
  proxy: proxyScenario,
  webhooks: webhooksScenario,
  conform: conformScenario,
  'conform-remote': conformRemoteScenario,
  'startup-and-memory': startupScenario,
  'tenants-10k': tenantsScenario,
  'start-close': startCloseScenario,
  redis: redisScenario,
  baseline: baselineScenario,
  'noisy-neighbour': noisyNeighbourScenario,
  compaction: compactionScenario,
};
