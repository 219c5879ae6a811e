/**
 * The Redis keys of a replicated mock (`--redis`). Every key of one tenant carries the org in braces (a Redis
 * Cluster hash tag), so a tenant's keys would sit in one slot; the schedule and the config are global keys, so the
 * mock needs one Redis primary (Sentinel or a managed primary with replicas is fine; Cluster is not supported).
 */
export interface ReplicationKeys {
  /** What every key starts with. */
  readonly prefix: string;
  /** The settings every replica must share (seed, catalog size, JWT secret digest). */
  readonly config: string;
  /** An id made when the first replica met this Redis: gone (or another) when Redis lost its data. */
  readonly instance: string;
  /** Bumped by a reset of every tenant: each tenant's epoch is read together with it. */
  readonly globalEpoch: string;
  /** The webhook key every replica signs with: the first replica's, claimed when a replica joins (./index.ts). */
  readonly webhookKey: string;
  /** API key value -> org, so a replica that never saw a tenant finds the tenant of a key. */
  readonly apiKeys: string;
  /**
   * The line of tenants with due webhook attempts: member the org, score its turn (the later of its earliest due
   * attempt and the time a claim last served it); each tenant's attempts wait in `<jobs key>:due` (./scripts.ts).
   */
  readonly due: string;
  /** Claimed attempts: same members, score the real time the claim lapses (a crashed replica's claims). */
  readonly leases: string;
  /** A tenant's hash: `epoch` (bumped by a reset), `last` (id of its newest log entry). */
  meta(org: string): string;
  /** A tenant's change log: a stream of its writes in the order every replica applies them. */
  log(org: string): string;
  /** A tenant's write lock: one replica at a time handles a writing request of the tenant. */
  lock(org: string): string;
  /** A tenant's rate-limit token bucket. */
  rate(org: string): string;
  /** A tenant's scheduled attempts: notification id -> the job (JSON), kept while the attempt is due or claimed. */
  jobs(org: string): string;
}

/** The keys under a prefix (default `opsapi:`). */
export function replicationKeys(prefix = 'opsapi:'): ReplicationKeys {
  const tenant = (org: string, what: string) => `${prefix}t:{${org}}:${what}`;
  return {
    prefix,
    config: `${prefix}config`,
    instance: `${prefix}instance`,
    globalEpoch: `${prefix}epoch`,
    webhookKey: `${prefix}webhook-key`,
    apiKeys: `${prefix}api-keys`,
    due: `${prefix}due`,
    leases: `${prefix}leases`,
    meta: (org) => tenant(org, 'meta'),
    log: (org) => tenant(org, 'log'),
    lock: (org) => tenant(org, 'lock'),
    rate: (org) => tenant(org, 'rate'),
    jobs: (org) => tenant(org, 'jobs'),
  };
}

/** The org and notification id of a member; null for a member this version did not write. */
export function parseJobMember(member: string): { org: string; id: string } | null {
  const cut = member.indexOf('\n');
  if (cut <= 0 || cut === member.length - 1) return null;
  return { org: member.slice(0, cut), id: member.slice(cut + 1) };
}

/** Where a Redis URL points, without the credentials a `redis://user:password@host` URL may carry (banner, stats). */
export function redisLocation(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return 'the given URL';
  }
}
