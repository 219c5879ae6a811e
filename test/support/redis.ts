import { spawnSync } from 'node:child_process';
import { REDIS_SERVER, type startRedisServer } from '../../common/redis-server.js';

/** A redis-server a test started (common/redis-server.ts). */
export type RedisServer = Awaited<ReturnType<typeof startRedisServer>>;

/**
 * Whether tests of the replicated mock can run here (they start a real `redis-server`). Where it is absent they skip
 * with a printed reason, except under `CI=true`, where its absence is a failure (CI installs it: see .ci/run).
 */
export function redisAvailability(): { run: true } | { run: false; reason: string } {
  const probe = spawnSync(REDIS_SERVER, ['--version'], { encoding: 'utf8' });
  if (probe.status === 0) return { run: true };
  const reason = `${REDIS_SERVER} is not installed (apt-get install -y redis-server); Redis tests skipped`;
  if (process.env.CI === 'true') throw new Error(`${reason}, but CI=true requires them`);
  console.warn(reason);
  return { run: false, reason };
}
