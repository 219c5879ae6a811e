import type { Rate, Take } from '../rate-limit.js';
import { WriteSession } from './write-session.js';

/** The tenant is being written by another replica for longer than a request may wait. */
export class TenantBusyError extends Error {
  override readonly name = 'TenantBusyError';
}

/** Timings of the write lock (ms). */
interface LockSettings {
  /** How long a write lock lasts if its holder dies. */
  readonly lockMs: number;
  /** How long a writing request waits for the lock before a 503. */
  readonly lockWaitMs: number;
}

/** The replica's gate: brings a tenant up to date, with the write lock when given a token (`'locked'`: held elsewhere). */
type LockingGate = (org: string, token: string, rate: Rate | null) => Promise<Take | null | 'locked'>;

/**
 * How long a write session admits new requests of its tenant (inferred): it stops at once when another replica waits
 * for the lock, and after this long in any case, well inside the lock's lifetime.
 */
const SESSION_OPEN_MS = 2_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The write sessions of one replica, by tenant (./write-session.ts): a writing request joins the session under way
 * or opens one, taking the Redis lock; the last request to leave a session releases it.
 */
export class WriteSessions {
  private readonly sessions = new Map<string, WriteSession>();
  /** Tenants whose last write session ended because another replica waited for the lock. */
  private readonly yielded = new Set<string>();
  private lockSeq = 0;

  constructor(
    private readonly replica: string,
    private readonly settings: LockSettings,
    private readonly gate: LockingGate,
    private readonly warn: (message: string) => void,
  ) {}

  /** A writing request of `org` enters: its session, and the tenant brought up to date (and the rate-limit take). */
  async open(org: string, rate: Rate | null): Promise<{ session: WriteSession; taken: Take | null }> {
    const deadline = Date.now() + this.settings.lockWaitMs;
    for (;;) {
      const current = this.sessions.get(org);
      if (current?.admits(Date.now())) {
        // The lock is (being) taken by this replica: join, and only bring the tenant up to date.
        current.join();
        try {
          await current.acquired;
          // While this replica holds the lock no other can answer a write of the tenant, so its copy is current but
          // for webhook records other replicas append meanwhile (read at the next request that takes a gate): without
          // a rate limit to take, no round trip.
          if (!rate) return { session: current, taken: null };
          const taken = await this.gate(org, '', rate);
          return { session: current, taken: taken === 'locked' ? null : taken };
        } catch (error) {
          this.leave(org, current);
          throw error;
        }
      }
      if (current) {
        await this.waitForEnd(org, current, deadline);
        continue;
      }
      // After a session that ended because another replica waited, let that replica take its turn first.
      if (this.yielded.delete(org)) await sleep(2 + Math.random() * 4);
      if (this.sessions.has(org)) continue;
      const session = new WriteSession(`${this.replica}:${++this.lockSeq}`, SESSION_OPEN_MS);
      session.join();
      this.sessions.set(org, session);
      try {
        const taken = await this.lock(org, session.token, rate, deadline);
        session.lockTaken();
        return { session, taken };
      } catch (error) {
        session.lockFailed(error as Error);
        this.leave(org, session);
        throw error;
      }
    }
  }

  /**
   * A request of a session leaves; true when it was the last (the caller then releases the lock with its last append
   * and calls `session.end()`; a session whose lock was never taken ends here).
   */
  leave(org: string, session: WriteSession): boolean {
    if (!session.leave()) return false;
    if (this.sessions.get(org) === session) this.sessions.delete(org);
    if (session.yielding) this.yielded.add(org);
    return true;
  }

  /** Another replica waits for the tenant's lock: the session holding it takes no newcomers, so it ends soon. */
  stopAdmitting(org: string): void {
    this.sessions.get(org)?.stopAdmitting();
  }

  /** Waits for a session to end; one left behind by requests that never left is abandoned after the lock's lifetime. */
  private async waitForEnd(org: string, current: WriteSession, deadline: number): Promise<void> {
    const left = deadline - Date.now();
    if (left <= 0)
      throw new TenantBusyError(`tenant ${org} has had a write under way for over ${this.settings.lockWaitMs} ms`);
    const ended = await Promise.race([
      current.ended.then(() => true),
      sleep(Math.min(left, this.settings.lockMs)).then(() => false),
    ]);
    if (!ended && this.sessions.get(org) === current && current.age() >= this.settings.lockMs) {
      this.sessions.delete(org);
      this.warn(`a write session of tenant ${org} outlived its lock (${this.settings.lockMs} ms): abandoned`);
    }
  }

  /** The gate with the write lock: waits while another replica holds it, until `deadline`. */
  private async lock(org: string, token: string, rate: Rate | null, deadline: number): Promise<Take | null> {
    for (;;) {
      const taken = await this.gate(org, token, rate);
      if (taken !== 'locked') return taken;
      if (Date.now() > deadline)
        throw new TenantBusyError(
          `tenant ${org} is being written by another replica for over ${this.settings.lockWaitMs} ms`,
        );
      await sleep(1 + Math.random() * 4);
    }
  }
}
