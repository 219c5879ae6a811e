import type { KeptTeam, TeamChange, TeamRegistry } from '../teams/registry.js';
import { replicationKeys } from './keys.js';
import { connectRedis } from './redis-commands.js';

/**
 * Full re-reads of the teams (inferred): a replica that missed a message while its subscription was down catches up
 * within this; a team created less than this ago and not yet read back is left alone (its write may still be on its
 * way to Redis).
 */
const SYNC_EVERY_MS = 10_000;

/** Whether a stored value is a kept team (a hash edited by hand must not crash a replica). */
function parsedTeam(text: string): KeptTeam | null {
  try {
    const team = JSON.parse(text) as KeptTeam;
    return typeof team.id === 'string' && typeof team.orgPrefix === 'string' && typeof team.keyDigest === 'string'
      ? team
      : null;
  } catch {
    return null;
  }
}

/**
 * The teams of a replicated mock, shared through Redis (docs/DESIGN.md, "Team credentials (shared sandbox)"): the hash
 * `opsapi:teams` (id -> the kept team, key digest only) holds them, and each change is published on the channel
 * `opsapi:teams`, which every replica applies at once, so a team created on one replica works on the next request to
 * another and a revoked one stops on all. A key or a token's team a replica has not heard of makes it read the hash
 * first (a team created a moment ago elsewhere). Its own connections, so the tenants' hot path is not queued behind it.
 */
export async function shareTeams(
  url: string,
  teams: TeamRegistry,
  warn: (message: string) => void,
): Promise<{ close(): Promise<void> }> {
  const link = await connectRedis(url, warn);
  const subscriber = link.client.duplicate();
  const { prefix } = replicationKeys();
  const hash = `${prefix}teams`;
  const channel = `${prefix}teams`;

  /** Reads every team; with `prune`, drops those gone from Redis (revoked while a message was missed). */
  const read = async (prune: boolean): Promise<void> => {
    const stored = Object.values(await link.client.hgetall(hash)).map(parsedTeam);
    const ids = new Set<string>();
    for (const team of stored) {
      if (!team) continue;
      ids.add(team.id);
      teams.apply({ kind: 'create', team });
    }
    if (!prune) return;
    const settledBefore = Date.now() - SYNC_EVERY_MS;
    for (const team of teams.kept())
      if (!ids.has(team.id) && Date.parse(team.createdAt) < settledBefore) teams.apply({ kind: 'revoke', id: team.id });
  };
  let reading: Promise<void> | null = null;
  teams.useReload(() => {
    reading ??= read(false).finally(() => {
      reading = null;
    });
    return reading.catch(() => undefined);
  });

  teams.listeners.push(async (change: TeamChange) => {
    if (change.kind === 'create') await link.client.hset(hash, change.team.id, JSON.stringify(change.team));
    else await link.client.hdel(hash, change.id);
    await link.client.publish(channel, JSON.stringify(change));
  });

  subscriber.on('message', (_channel: string, message: string) => {
    try {
      const change = JSON.parse(message) as TeamChange;
      if (change.kind === 'revoke' && typeof change.id === 'string') teams.apply(change);
      else if (change.kind === 'create' && parsedTeam(JSON.stringify(change.team))) teams.apply(change);
    } catch {
      // Not a message of this version: the next full read catches up.
    }
  });
  subscriber.on('error', () => undefined);
  await subscriber.connect();
  await subscriber.subscribe(channel);
  await read(false);
  const timer = setInterval(() => {
    read(true).catch((error: Error) => warn(`cannot read the teams from Redis: ${error.message}`));
  }, SYNC_EVERY_MS);
  timer.unref();
  return {
    close: async () => {
      clearInterval(timer);
      subscriber.disconnect();
      await link.client.quit().catch(() => link.client.disconnect());
    },
  };
}
