import { randomBytes } from 'node:crypto';
import { DEFAULT_WEBHOOK_KEY, type MockOptions } from './options.js';
import { keptWebhookKey } from './persistence/webhook-key.js';
import { isLoopbackHost, MIN_SECRET_LENGTH } from './shared-mode.js';

/**
 * Which key the tenants' webhook signing secrets derive from (docs/DESIGN.md, "Shared sandbox"):
 * `--webhook-key` when given; on a loopback host the published `DEFAULT_WEBHOOK_KEY`, so a local receiver keeps its
 * secret across restarts; on any other host a random key made at the first start (inferred: a published key would let
 * anyone compute every tenant's secret, and asking the operator for one more secret is needless when the mock can make
 * it), kept with `--state` (`FILE.webhook-key`) and shared in Redis with `--redis`, where the first replica's key wins
 * (claimed when the replica joins Redis).
 */
export async function resolveWebhookKey(
  options: Pick<MockOptions, 'host' | 'webhookKey' | 'stateFile'>,
): Promise<string> {
  const given = options.webhookKey ?? null;
  const fresh = () => randomBytes(32).toString('hex');
  // With --redis (never with --state: mock/server.ts refuses both) this is the replica's candidate: joining Redis
  // claims it, or adopts the key of the replica that claimed first (mock/replication/index.ts `joinWebhookKey`).
  if (given !== null) return given;
  if (isLoopbackHost(options.host)) return DEFAULT_WEBHOOK_KEY;
  return options.stateFile ? keptWebhookKey(options.stateFile, fresh, MIN_SECRET_LENGTH) : fresh();
}
