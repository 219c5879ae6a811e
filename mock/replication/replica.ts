import { randomUUID } from 'node:crypto';
import type { Rate, Take } from '../rate-limit.js';
import type { Change } from '../store/change.js';
import type { Store } from '../store/store.js';
import type { TenantState } from '../store/tenant-state.js';
import type { Job } from '../webhooks/runtime.js';
import type { ReplicationKeys } from './keys.js';
import { apiKeyValueOf, decodeEntries, encodeChange } from './log-entry.js';
import { applyEntries, laterId, type Position } from './log-follower.js';
import type { RedisLink } from './redis-commands.js';
import { WriteSession } from './write-session.js';

/** A schedule operation of an attempt, sent with the tenant's next append. */
type ScheduleOp = { kind: 's'; id: string; job: Job; realDue: number } | { kind: 'c'; id: string };

/** What waits to be appended to a tenant's log. */
interface Outbox {
  reset: boolean;
  changes: Change[];
  ops: ScheduleOp[];
}

/** A request of a tenant under way on this replica (`enter` .. `leave`). */
export interface Entry {
  readonly org: string;
  /** The write lock held for a writing request (null for a reading one). */
  readonly session: WriteSession | null;
  /** The rate-limit take, when the request is rate limited. */
  readonly taken: Take | undefined;
  left: boolean;
}

/** Settings of a replica. */
export interface ReplicaSettings {
  /** How long a write lock lasts if its holder dies (ms). */
  readonly lockMs: number;
  /** How long a writing request waits for the lock before a 503 (ms). */
  readonly lockWaitMs: number;
}

/** The tenant is being written by another replica for longer than a request may wait. */
export class TenantBusyError extends Error {
  override readonly name = 'TenantBusyError';
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * How long a write session admits new requests of its tenant (inferred): it stops at once when another replica waits
 * for the lock, and after this long in any case, well inside the lock's lifetime.
 */
const SESSION_OPEN_MS = 2_000;

/**
 * One process of a replicated mock (`--redis`). Redis holds each tenant's writes as an ordered log; this process keeps
 * the tenants it serves in memory as a cache of that log and brings a tenant up to date before each request of it
 * (`enter`: one script call that also takes the write lock and the rate-limit token), then appends what the request
 * wrote before the answer is sent (`leave`), so the next request, on any replica, reads it.
 *
 * Consistency: writing requests of one tenant are serialised by its lock; writes made outside a request (webhook
 * attempts) are appended without it. Every replica applies the log in its order; a replica whose append finds
 * entries it has not seen before its own re-reads from where it was, so all converge on the log's order.
 */
export class Replica {
  readonly id = randomUUID().slice(0, 8);
  private readonly positions = new WeakMap<TenantState, Position>();
  private readonly outboxes = new Map<string, Outbox>();
  private readonly active = new Map<string, number>();
  private readonly flushing = new Map<string, Promise<void>>();
  private readonly background = new Set<string>();
  /** Write sessions under way, by org (./write-session.ts). */
  private readonly sessions = new Map<string, WriteSession>();
  /** Tenants whose last write session ended because another replica waited for the lock. */
  private readonly yielded = new Set<string>();
  private globalResets = 0;
  private lockSeq = 0;
  /** Set while this replica applies what others did: those resets and evictions are not sent back. */
  private quiet = false;
  private closed = false;
  /** Called after an append that scheduled attempts due now (the claim poller looks at once). */
  onDueNow: () => void = () => undefined;

  constructor(
    private readonly link: RedisLink,
    private readonly keys: ReplicationKeys,
    private readonly store: Store,
    private readonly settings: ReplicaSettings,
    private readonly warn: (message: string) => void,
  ) {
    store.onChange((change) => {
      this.outbox(change.org).changes.push(change);
      this.flushSoon(change.org);
    });
    store.onDrop.push((org, reason) => {
      if (reason !== 'reset' || this.quiet) return;
      const box = this.outbox(org);
      box.reset = true;
      box.changes = [];
      box.ops = [];
      this.flushSoon(org);
    });
    store.onResetAll.push(() => {
      if (!this.quiet) this.globalResets++;
    });
  }

  /** The org of an API key value: this process's index, else the shared one. */
  async apiKeyOrg(key: string): Promise<string | undefined> {
    return this.store.apiKeyOrg(key) ?? (await this.link.client.hget(this.keys.apiKeys, key)) ?? undefined;
  }

  /**
   * Brings the tenant up to date before a request: with `write`, first takes its write lock (waiting while another
   * replica holds it); with `rate`, takes a token of its shared bucket. Rejects when Redis cannot be reached.
   */
  async enter(org: string, options: { write: boolean; rate: Rate | null }): Promise<Entry> {
    if (!options.write) {
      const taken = await this.gate(org, '', options.rate);
      return this.entered(org, null, taken);
    }
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
          if (!options.rate) return this.entered(org, current, null);
          return this.entered(org, current, await this.gate(org, '', options.rate));
        } catch (error) {
          this.endSession(org, current);
          throw error;
        }
      }
      if (current) {
        // Wait for it to end; a session left behind by requests that never left (the lock lapses in Redis by then) is
        // abandoned after the lock's lifetime.
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
        continue;
      }
      // After a session that ended because another replica waited, let that replica take its turn first.
      if (this.yielded.delete(org)) await sleep(2 + Math.random() * 4);
      if (this.sessions.has(org)) continue;
      const session = new WriteSession(`${this.id}:${++this.lockSeq}`, SESSION_OPEN_MS);
      session.join();
      this.sessions.set(org, session);
      try {
        const taken = await this.lockingGate(org, session.token, options.rate, deadline);
        session.lockTaken();
        return this.entered(org, session, taken);
      } catch (error) {
        session.lockFailed(error as Error);
        this.endSession(org, session);
        throw error;
      }
    }
  }

  /** The gate with the write lock: waits while another replica holds it, until `deadline`. */
  private async lockingGate(org: string, token: string, rate: Rate | null, deadline: number): Promise<Take | null> {
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

  private entered(org: string, session: WriteSession | null, taken: Take | null | 'locked'): Entry {
    this.active.set(org, (this.active.get(org) ?? 0) + 1);
    return { org, session, taken: taken === 'locked' || taken === null ? undefined : taken, left: false };
  }

  /** A request of a session left without its lock ever taken (or with it): the session ends when it was the last. */
  private endSession(org: string, session: WriteSession): void {
    if (!session.leave()) return;
    if (this.sessions.get(org) === session) this.sessions.delete(org);
    session.end();
  }

  /** Ends a request: appends what it wrote (the last of a write session also releases the lock) before its answer. */
  async leave(entry: Entry): Promise<void> {
    if (entry.left) return;
    entry.left = true;
    const n = (this.active.get(entry.org) ?? 1) - 1;
    if (n > 0) this.active.set(entry.org, n);
    else this.active.delete(entry.org);
    const session = entry.session;
    if (!session?.leave()) {
      await this.flush(entry.org);
      return;
    }
    if (this.sessions.get(entry.org) === session) this.sessions.delete(entry.org);
    if (session.yielding) this.yielded.add(entry.org);
    try {
      await this.flush(entry.org, session.token);
    } finally {
      session.end();
    }
  }

  /** Brings a tenant up to date without lock or rate limit (webhook attempts claimed by this replica). */
  async sync(org: string): Promise<TenantState> {
    await this.gate(org, '', null);
    return this.store.tenant(org);
  }

  /** Queues a schedule operation of an attempt; it reaches Redis with the tenant's next append. */
  schedule(org: string, op: ScheduleOp): void {
    this.outbox(org).ops.push(op);
    this.flushSoon(org);
  }

  /**
   * Appends what waits for a tenant (in order: a reset, the changes, the schedule operations) and, with a token,
   * releases its write lock; resolves once what waited when it was called is in the log. Appends are pipelined: each
   * is sent at once on the one connection, so Redis applies them in call order while earlier ones are still answering.
   */
  flush(org: string, token = ''): Promise<void> {
    const box = this.outboxes.get(org);
    const work = box !== undefined && (box.reset || box.changes.length > 0 || box.ops.length > 0);
    // Nothing new: what this caller wrote left with an append already under way (the latest, answered last).
    if (!work && token === '') return this.flushing.get(org) ?? Promise.resolve();
    const run = this.append(org, token);
    this.flushing.set(org, run);
    void run
      .finally(() => {
        if (this.flushing.get(org) === run) this.flushing.delete(org);
      })
      .catch(() => undefined);
    return run;
  }

  /** Sends a reset of every tenant made on this replica (`POST /__mock/reset {"all":true}`), if one is waiting. */
  async flushGlobalReset(): Promise<void> {
    if (this.globalResets === 0) return;
    this.globalResets = 0;
    await this.link.client.incr(this.keys.globalEpoch);
  }

  /** Drops this replica's copy of a tenant without telling the others (its next request rebuilds it from the log). */
  forget(org: string): void {
    this.outboxes.delete(org);
    this.withQuiet(() => this.store.reset(org, 'evict'));
  }

  /** Stops background appends. */
  close(): void {
    this.closed = true;
  }

  private async gate(org: string, token: string, rate: Rate | null): Promise<Take | null | 'locked'> {
    const tenant = this.store.tenant(org);
    const position = this.positions.get(tenant) ?? { epoch: '', last: '' };
    const k = this.keys;
    const reply = (await this.link.run(
      'opsapiGate',
      [k.meta(org), k.log(org), k.lock(org), k.rate(org), k.globalEpoch],
      [position.epoch, position.last, token, this.settings.lockMs, rate?.limit ?? 0, rate?.windowMs ?? 1000],
    )) as [string, string?, unknown?, number?, number?, number?];
    if (reply[0] === 'locked') return 'locked';
    const [, epoch = '', entries, taken = 1, value = -1, waiting = 0] = reply;
    // Another replica waits for this tenant's lock: the session holding it takes no newcomers, so it ends soon.
    if (waiting === 1) this.sessions.get(org)?.stopAdmitting();
    this.follow(org, tenant, position, epoch, entries);
    if (!rate) return null;
    return taken === 1 ? { ok: true, remaining: value } : { ok: false, retryAfterMs: value };
  }

  /** Applies log entries to this replica's copy of a tenant (a fresh seeded world when the tenant was reset). */
  private follow(org: string, tenant: TenantState, position: Position, epoch: string, entries: unknown): void {
    let target = tenant;
    if (position.epoch !== '' && position.epoch !== epoch) {
      // Reset on another replica: drop this copy (quietly) and replay the new log onto a fresh world.
      this.withQuiet(() => this.store.reset(org, 'evict'));
      target = this.store.tenant(org);
    }
    const fresh = target !== tenant || position.epoch === '';
    const last = applyEntries(target, decodeEntries(entries), this.id, fresh);
    if (last.keys) this.store.indexApiKeys(target);
    const known = target === tenant && position.epoch === epoch ? position.last : '';
    this.positions.set(target, { epoch, last: laterId(known, last.id) });
  }

  /** Sends one append (synchronously, so appends leave in call order) and follows up on its answer. */
  private append(org: string, token: string): Promise<void> {
    const box = this.outboxes.get(org);
    this.outboxes.delete(org);
    const k = this.keys;
    const reset = box?.reset
      ? this.link.run('opsapiReset', [k.meta(org), k.log(org), k.rate(org), k.jobs(org), k.due], [org])
      : null;
    const changes = box?.changes ?? [];
    const ops = box?.ops ?? [];
    if (changes.length === 0 && ops.length === 0) {
      const unlock = token !== '' ? this.link.run('opsapiUnlock', [k.lock(org)], [token]) : null;
      return Promise.all([reset, unlock]).then(() => undefined);
    }
    const args: (string | number)[] = [token, org, changes.length, this.id];
    for (const change of changes) args.push(encodeChange(change, this.id), apiKeyValueOf(change));
    let dueNow = false;
    const now = Date.now();
    for (const op of ops) {
      if (op.kind === 's') {
        args.push('s', op.id, JSON.stringify(op.job), Math.round(op.realDue));
        if (op.realDue <= now) dueNow = true;
      } else args.push('c', op.id, '', 0);
    }
    const sent = this.link.run(
      'opsapiAppend',
      [k.meta(org), k.log(org), k.rate(org), k.globalEpoch, k.apiKeys, k.lock(org), k.jobs(org), k.due],
      args,
    ) as Promise<[string, string, string[], string]>;
    return this.appended(org, reset, sent, dueNow);
  }

  /** What follows an append's answer: the copy's position moves on, or it reads again what came in between. */
  private async appended(
    org: string,
    reset: Promise<unknown> | null,
    sent: Promise<[string, string, string[], string]>,
    dueNow: boolean,
  ): Promise<void> {
    let reply: [string, string, string[], string];
    try {
      await reset;
      reply = await sent;
    } catch (error) {
      // Not appended: this copy holds writes the log does not; drop it so no one reads them as acknowledged.
      this.forget(org);
      throw error;
    }
    if (dueNow) this.onDueNow();
    const [before, epoch, ids, beforeBy] = reply;
    const position = this.positionOf(org);
    // Nothing unseen came before this append when the entry before it is the last this copy applied, or one of this
    // replica's own (an earlier append of its, whose own check covers what came before that one).
    if (position && epoch === position.epoch && (before === position.last || beforeBy === this.id)) {
      position.last = laterId(position.last, ids.at(-1));
    } else if (this.store.peek(org)) {
      // Another replica appended in between (or this copy never followed the log): read again from where it was.
      await this.gate(org, '', null);
    }
  }

  /** How far this replica's copy of a tenant (if in memory) has followed the log. */
  private positionOf(org: string): Position | undefined {
    const tenant = this.store.peek(org);
    return tenant ? this.positions.get(tenant) : undefined;
  }

  private outbox(org: string): Outbox {
    let box = this.outboxes.get(org);
    if (!box) {
      box = { reset: false, changes: [], ops: [] };
      this.outboxes.set(org, box);
    }
    return box;
  }

  /** Writes made outside a request of the tenant (webhook attempts) are appended on the next turn. */
  private flushSoon(org: string): void {
    if (this.active.has(org) || this.background.has(org) || this.closed) return;
    this.background.add(org);
    setImmediate(() => {
      this.background.delete(org);
      if (this.active.has(org) || !this.outboxes.has(org)) return;
      this.flush(org).catch((error: Error) => this.warn(`could not append writes of tenant ${org}: ${error.message}`));
    });
  }

  private withQuiet(action: () => void): void {
    const was = this.quiet;
    this.quiet = true;
    try {
      action();
    } finally {
      this.quiet = was;
    }
  }
}
