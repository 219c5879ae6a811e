import type { WebhookEngine } from '../webhooks/engine.js';
import type { Job } from '../webhooks/runtime.js';
import { parseJobMember, type ReplicationKeys } from './keys.js';
import type { RedisLink } from './redis-commands.js';
import type { Replica } from './replica.js';

/** An attempt this replica claimed: its member in the schedule, tenant, notification, job and lease token. */
interface Claim {
  readonly member: string;
  readonly org: string;
  readonly id: string;
  readonly job: Job;
  readonly token: string;
}

/** Settings of the claim loop. */
interface ClaimSettings {
  /** How often the due set is looked at (real ms). */
  readonly pollMs: number;
  /**
   * How long a claim lasts (ms): longer than an attempt can take (the delivery timeout), so a live replica never loses
   * a claim it is still making; a dead replica's claims lapse to the others after it.
   */
  readonly leaseMs: number;
  /** Most attempts claimed per look. */
  readonly batch: number;
}

/**
 * Makes the webhook attempts of every tenant that fall due, sharing the work with the other replicas: each look
 * claims due attempts in one script call (each is leased to one replica only), makes them here (bringing the tenant
 * up to date first), appends their records, then completes the claim. At-least-once: a replica that dies after
 * sending an attempt but before completing its claim leaves it to be made again when the lease lapses (the
 * receiver sees the same event id twice and drops the duplicate, Events point 5).
 */
export class ClaimPoller {
  private timer: NodeJS.Timeout | null = null;
  private looking = false;
  private again = false;
  private readonly working = new Set<Promise<void>>();

  constructor(
    private readonly link: RedisLink,
    private readonly keys: ReplicationKeys,
    private readonly replica: Replica,
    private readonly settings: ClaimSettings,
    private readonly warn: (message: string) => void,
    private engine: WebhookEngine | null = null,
  ) {}

  /** Starts looking (the engine is made after the scheduler factory that needs this poller). */
  start(engine: WebhookEngine): void {
    this.engine = engine;
    this.timer = setInterval(() => this.look(), this.settings.pollMs);
    this.timer.unref();
    this.replica.onDueNow = () => setImmediate(() => this.look());
  }

  /** Stops looking and waits for the attempts this replica is making. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    while (this.working.size > 0) await Promise.allSettled([...this.working]);
  }

  /**
   * Claims one tenant's due attempts and starts each with `start`; with `offset` (its clock jumped: the clock's offset,
   * ms), its waiting attempts are first moved to when they are now due, in the same script, so no other replica's
   * look takes them between the two (the replica told of the jump makes them before it answers).
   */
  async claimTenant(org: string, start: (id: string, job: Job) => Promise<void>, offset?: number): Promise<void> {
    for (const claim of await this.claim(org, offset)) this.track(claim, () => start(claim.id, claim.job));
  }

  private look(): void {
    if (!this.engine || !this.timer) return;
    if (this.looking) {
      this.again = true;
      return;
    }
    this.looking = true;
    const engine = this.engine;
    void this.claim('')
      .then((claims) => {
        for (const claim of claims)
          this.track(claim, async () => {
            const tenant = await this.replica.sync(claim.org);
            await engine.startClaimed(tenant, claim.id, claim.job);
          });
        if (claims.length === this.settings.batch) this.again = true;
      })
      .catch((error: Error) => this.warn(`could not claim webhook attempts: ${error.message}`))
      .finally(() => {
        this.looking = false;
        if (this.again) {
          this.again = false;
          setImmediate(() => this.look());
        }
      });
  }

  /** Makes one claimed attempt, appends what it recorded, then completes the claim. */
  private track(claim: Claim, make: () => Promise<void>): void {
    const { member, token, org, id } = claim;
    const k = this.keys;
    const work = (async () => {
      await make();
      await this.replica.flush(org);
      await this.link.run('opsapiComplete', [k.leases, `${k.leases}:owners`, k.jobs(org), k.due], [member, token, id]);
    })()
      .catch((error: Error) => this.warn(`webhook attempt of tenant ${org}: ${error.message} (its claim will lapse)`))
      .finally(() => this.working.delete(work));
    this.working.add(work);
  }

  private async claim(org: string, offset?: number): Promise<Claim[]> {
    const { leases, due } = this.keys;
    const flat = (await this.link.run(
      'opsapiClaim',
      [due, leases, `${leases}:owners`],
      [
        Date.now(),
        this.settings.leaseMs,
        this.settings.batch,
        this.replica.id,
        this.keys.prefix,
        org,
        offset === undefined ? '' : Math.round(offset),
      ],
    )) as string[];
    const out = [];
    for (let i = 0; i + 2 < flat.length; i += 3) {
      const member = flat[i] as string;
      const parsed = parseJobMember(member);
      if (!parsed) continue;
      out.push({ member, ...parsed, job: JSON.parse(flat[i + 1] as string) as Job, token: flat[i + 2] as string });
    }
    return out;
  }
}
