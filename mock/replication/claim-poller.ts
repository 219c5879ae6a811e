import type { Rate } from '../rate-limit.js';
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
  /**
   * The shortest time between two looks while there is work (real ms): attempts due now that this replica's slots
   * could not take yet, or slots that just freed up.
   */
  readonly pollMs: number;
  /**
   * The longest a replica sleeps without looking (real ms): it knows when what it saw falls due and is told what it
   * schedules itself, so this only bounds how late it takes up what another replica scheduled and then did not make
   * (that replica stopped, or its slots were full).
   */
  readonly idleMs: number;
  /**
   * How long a claim lasts (ms): longer than an attempt can take (the delivery timeout), so a live replica never loses
   * a claim it is still making; a dead replica's claims lapse to the others after it.
   */
  readonly leaseMs: number;
  /** Most attempts claimed per look (fewer when this replica's delivery slots are nearly all taken). */
  readonly batch: number;
  /**
   * The pace of a tenant's attempts (`--delivery-rate-per-tenant`), or null: counted over all replicas, in Redis
   * (./scripts.ts CLAIM), where each replica's own slots would let a tenant make it once per replica.
   */
  readonly pace: Rate | null;
}

/** What the claim asks of this replica's delivery slots (the engine's `deliveryLoad`). */
interface SlotsLoad {
  readonly total: { readonly active: number; readonly waiting: number };
  readonly bounds: { readonly global: number; readonly perTenant: number };
  tenants(): Iterable<[string, { readonly active: number; readonly waiting: number }]>;
}

/**
 * Makes the webhook attempts of every tenant that fall due, sharing the work with the other replicas: each look
 * claims due attempts in one script call (each is leased to one replica only), makes them here (bringing the tenant
 * up to date first), appends their records, then completes the claim. A look is made when something falls due: the
 * claim answers when the schedule is next due, this replica's own appends say when what they scheduled is, and a
 * finished attempt frees a slot; an idle replica looks once per `idleMs` (a fixed 20 ms poll cost an idle replica
 * 6% of a core and Redis 1.4%, measured). At-least-once: a replica that dies after
 * sending an attempt but before completing its claim leaves it to be made again when the lease lapses (the
 * receiver sees the same event id twice and drops the duplicate, Events point 5).
 *
 * Fair over tenants: a look claims at most what this replica's delivery slots can start now, and of each tenant at
 * most its share (`--delivery-concurrency-per-tenant`) minus what this replica already holds of it; the claim script
 * serves the tenants in turn (./scripts.ts), so one tenant's backlog never stands in front of another's attempts.
 */
export class ClaimPoller {
  private timer: NodeJS.Timeout | null = null;
  /** When the timer fires (real ms); infinite when none is set. */
  private timerAt = Number.POSITIVE_INFINITY;
  private running = false;
  private looking = false;
  private again = false;
  private readonly working = new Set<Promise<void>>();
  /**
   * Attempts a look claimed that are not in the delivery slots yet (their tenant is being brought up to date first),
   * per tenant, and over all tenants: the slots' load does not show them, and a look that ignored them would claim a
   * tenant's share again, and more than the slots can start, while they are on their way.
   */
  private readonly handing = new Map<string, number>();
  private handingTotal = 0;

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
    this.running = true;
    this.replica.onScheduled = (realDue) => this.lookAt(realDue);
    this.lookAt(Date.now());
  }

  /** Stops looking and waits for the attempts this replica is making. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Number.POSITIVE_INFINITY;
    while (this.working.size > 0) await Promise.allSettled([...this.working]);
  }

  /**
   * Looks at `at` (real ms; at once when it has passed, and within `idleMs` when it is later), unless a look is already
   * set for no later.
   */
  private lookAt(when: number): void {
    const at = Math.min(when, Date.now() + this.settings.idleMs);
    if (!this.running || at >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.timerAt = Number.POSITIVE_INFINITY;
        this.look();
      },
      Math.max(0, at - Date.now()),
    );
    this.timer.unref();
  }

  /** The next look after one that found `next` (the schedule's next due time, -1 when empty): soon, never busily. */
  private lookAfter(next: number): void {
    const now = Date.now();
    this.lookAt(next < 0 ? now + this.settings.idleMs : Math.max(next, now + this.settings.pollMs));
  }

  /**
   * Claims one tenant's due attempts and starts each with `start`; with `offset` (its clock jumped: the clock's offset,
   * ms), its waiting attempts are first moved to when they are now due, in the same script, so no other replica's
   * look takes them between the two (the replica told of the jump makes them before it answers).
   */
  async claimTenant(org: string, start: (id: string, job: Job) => Promise<void>, offset?: number): Promise<void> {
    const { claims } = await this.claim(org, offset);
    for (const claim of claims) this.track(claim, () => start(claim.id, claim.job));
  }

  private look(): void {
    if (!this.engine || !this.running) return;
    if (this.looking) {
      this.again = true;
      return;
    }
    const engine = this.engine;
    const load = engine.deliveryLoad();
    // Claim only what this replica's slots can start now: an attempt claimed and left waiting here would hold its
    // lease while another replica has free slots, and lapse to be made twice.
    const room = Math.min(
      this.settings.batch,
      load.bounds.global - load.total.active - load.total.waiting - this.handingTotal,
    );
    if (room <= 0) {
      // Every slot is taken: look again when one frees up (`track`), or soon.
      this.lookAfter(0);
      return;
    }
    this.looking = true;
    let next = -1;
    void this.claim('', undefined, room, load)
      .then(({ claims, next: due }) => {
        next = due;
        for (const claim of claims) {
          this.handed(claim.org, 1);
          this.track(claim, async () => {
            let made: Promise<void>;
            try {
              const tenant = await this.replica.sync(claim.org);
              // The attempt is in the slots (or was dropped, its tenant gone) once this returns.
              made = engine.startClaimed(tenant, claim.id, claim.job);
            } finally {
              this.handed(claim.org, -1);
            }
            await made;
          });
        }
        if (claims.length === room) this.again = true;
      })
      .catch((error: Error) => this.warn(`could not claim webhook attempts: ${error.message}`))
      .finally(() => {
        this.looking = false;
        if (this.again) {
          this.again = false;
          this.lookAt(Date.now());
        } else this.lookAfter(next);
      });
  }

  /** Counts attempts claimed by a look on their way to the slots (`handing`). */
  private handed(org: string, delta: number): void {
    const n = (this.handing.get(org) ?? 0) + delta;
    if (n > 0) this.handing.set(org, n);
    else this.handing.delete(org);
    this.handingTotal += delta;
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
      .finally(() => {
        this.working.delete(work);
        // A slot is free: attempts due now that this replica had no room for can be claimed.
        this.lookAt(Date.now() + this.settings.pollMs);
      });
    this.working.add(work);
  }

  /**
   * Claims due attempts (./scripts.ts CLAIM): with `load`, fairly over tenants, at most a tenant's share of the slots
   * minus what this replica already holds of it (in the slots, or claimed and on its way to them).
   */
  private async claim(
    org: string,
    offset?: number,
    max = this.settings.batch,
    load?: SlotsLoad,
  ): Promise<{ claims: Claim[]; next: number }> {
    const { leases, due } = this.keys;
    const held: (string | number)[] = [];
    if (load) {
      const of = new Map(this.handing);
      for (const [tenant, { active, waiting }] of load.tenants())
        of.set(tenant, (of.get(tenant) ?? 0) + active + waiting);
      for (const [tenant, n] of of) held.push(tenant, n);
    }
    const [flat, next] = (await this.link.run(
      'opsapiClaim',
      [due, leases, `${leases}:owners`],
      [
        Date.now(),
        this.settings.leaseMs,
        max,
        this.replica.id,
        this.keys.prefix,
        org,
        offset === undefined ? '' : Math.round(offset),
        load ? load.bounds.perTenant : '',
        this.settings.pace?.limit ?? '',
        this.settings.pace?.windowMs ?? '',
        ...held,
      ],
    )) as [string[], number];
    const claims = [];
    for (let i = 0; i + 2 < flat.length; i += 3) {
      const member = flat[i] as string;
      const parsed = parseJobMember(member);
      if (!parsed) continue;
      claims.push({ member, ...parsed, job: JSON.parse(flat[i + 1] as string) as Job, token: flat[i + 2] as string });
    }
    return { claims, next };
  }
}
