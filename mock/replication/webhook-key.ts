import { replicationKeys } from './keys.js';
import { connectRedis, firstClaim } from './redis-commands.js';

/**
 * The webhook key every replica on one Redis signs with (docs/DESIGN.md, "Shared sandbox"): the first
 * replica to start stores its candidate (SET NX), every other one reads it, so a receiver checks one secret per tenant
 * whichever replica delivered. Read once, before the replica's store is built (each tenant's secret derives from it).
 * Throws `RedisUnavailableError` when Redis cannot be reached.
 */
export async function sharedWebhookKey(url: string, candidate: string): Promise<string> {
  const link = await connectRedis(url, () => undefined);
  try {
    return (await firstClaim(link.client, replicationKeys().webhookKey, candidate)) ?? candidate;
  } finally {
    link.client.disconnect();
  }
}
