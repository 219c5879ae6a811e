import type { AdminContext, AdminInstance } from '../context.js';
import { registerApiKeys } from './api-keys.js';
import { registerClientChecks } from './client-checks.js';
import { registerClock } from './clock.js';
import { registerCoverage } from './coverage.js';
import { registerEvents } from './events.js';
import { registerFixtures } from './fixtures.js';
import { registerHealth } from './health.js';
import { registerDocument } from './openapi.js';
import { registerRequests } from './requests.js';
import { registerReset } from './reset.js';
import { registerStats } from './stats.js';
import { registerTeams } from './teams.js';
import { registerTokens } from './tokens.js';
import { registerWebhookSecret } from './webhook-secret.js';

/**
 * Every route family of the admin API, one file each (`/__mock/<name>` in ./<name>.ts): its schemas, its documentation
 * (summary, description, tags, operationId, security, answers) and its handler. A new admin route goes into its
 * family's file, or a new file listed here; mock/test/admin-document.test.ts fails for a route the document misses.
 */
export const ADMIN_ROUTES: readonly ((admin: AdminInstance, context: AdminContext) => void)[] = [
  registerHealth,
  registerDocument,
  registerStats,
  registerTeams,
  registerTokens,
  registerReset,
  registerClock,
  registerFixtures,
  registerRequests,
  registerCoverage,
  registerApiKeys,
  registerWebhookSecret,
  registerEvents,
  registerClientChecks,
];
