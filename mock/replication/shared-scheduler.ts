import { VirtualClock, type Clock } from '../clock.js';
import type { Job } from '../webhooks/runtime.js';
import type { JobScheduler, SchedulerHooks } from '../webhooks/scheduler.js';
import type { ClaimPoller } from './claim-poller.js';
import type { Replica } from './replica.js';

/**
 * A tenant's schedule of automatic attempts shared by every replica (`--redis`): adding an attempt puts it, with the
 * tenant's next append, in Redis's due set at the real time it falls due (the tenant time minus the clock offset);
 * whichever replica claims it first makes it (./claim-poller.ts). No timer runs here.
 */
export class SharedScheduler implements JobScheduler<Job> {
  private stopped = false;

  constructor(
    private readonly org: string,
    private readonly clock: Clock,
    private readonly hooks: SchedulerHooks<Job>,
    private readonly replica: Replica,
    private readonly poller: ClaimPoller,
  ) {}

  /** Attempts live in Redis, not here: nothing waits in this process (eviction needs no pin for them). */
  get size(): number {
    return 0;
  }

  add(id: string, job: Job): void {
    this.replica.schedule(this.org, { kind: 's', id, job, realDue: job.dueAt - this.offset() });
  }

  cancel(id: string): void {
    this.replica.schedule(this.org, { kind: 'c', id });
  }

  /** Claims the tenant's attempts due now and starts them here (a clock jump answered on this replica). */
  async dispatch(): Promise<void> {
    await this.claimHere();
  }

  /** The clock jumped: every waiting attempt of the tenant is due that much sooner; those now due run here. */
  async afterClockJump(): Promise<void> {
    await this.claimHere(this.offset());
  }

  /** Appends what waits (the jump itself, attempts just scheduled), then claims the tenant's due attempts here. */
  private async claimHere(offset?: number): Promise<void> {
    if (this.stopped || !this.hooks.live()) return;
    await this.replica.flush(this.org);
    await this.poller.claimTenant(this.org, (id, job) => this.hooks.start(id, job), offset);
  }

  stop(): void {
    this.stopped = true;
  }

  discard(): void {
    this.stopped = true;
  }

  /** How far the tenant's clock runs ahead of real time (ms). */
  private offset(): number {
    return this.clock instanceof VirtualClock ? this.clock.offset : 0;
  }
}
