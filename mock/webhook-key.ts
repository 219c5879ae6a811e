import { randomBytes } from 'node:crypto';
import { DEFAULT_WEBHOOK_KEY, type MockOptions } from './options.js';
import { keptWebhookKey } from './persistence/webhook-key.js';
import { isLoopbackHost, MIN_SECRET_LENGTH, SharedModeError } from './shared-mode.js';

/**
 * Which key the tenants' webhook signing secrets derive from (docs/DESIGN.md, "Shared sandbox"):
 * `--webhook-key` when given; on a loopback host the published `DEFAULT_WEBHOOK_KEY`, so a local receiver keeps its
 * secret across restarts; on any other host a random key made at the first start (inferred: a published key would let
 * anyone compute every tenant's secret, and asking the operator for one more secret is needless when the mock can make
 * it), kept with `--state` (`FILE.webhook-key`) and shared in Redis with `--redis`, where the first replica's key wins.
 */
export async function resolveWebhookKey(
  options: Pick<MockOptions, 'host' | 'webhookKey' | 'stateFile' | 'redis'>,
): Promise<string> {
  const given = options.webhookKey ?? null;
  const fresh = () => randomBytes(32).toString('hex');
  if (options.redis) {
    const candidate = given ?? (isLoopbackHost(options.host) ? DEFAULT_WEBHOOK_KEY : fresh());
    // Loaded only with --redis, as the rest of the replication layer (mock/server.ts).
    const { sharedWebhookKey } = await import('./replication/webhook-key.js');
    const shared = await sharedWebhookKey(options.redis, candidate);
    if (given !== null && shared !== given)
      throw new SharedModeError(
        `Redis at ${new URL(options.redis).host} serves replicas started with another --webhook-key; start every replica with the same one (or none: the first replica's key is shared)`,
      );
    return shared;
  }
  if (given !== null) return given;
  if (isLoopbackHost(options.host)) return DEFAULT_WEBHOOK_KEY;
  return options.stateFile ? keptWebhookKey(options.stateFile, fresh, MIN_SECRET_LENGTH) : fresh();
}
