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
import type { WriteSession } from './write-session.js';
import { WriteSessions } from './write-sessions.js';

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
interface ReplicaSettings {
  /** How long a write lock lasts if its holder dies (ms). */
  readonly lockMs: number;
  /** How long a writing request waits for the lock before a 503 (ms). */
  readonly lockWaitMs: number;
}

/** Redis no longer holds what the replicas wrote (restarted without persistence, or flushed). */
export class SharedStateLostError extends Error {
  override readonly name = 'SharedStateLostError';
}

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
  /** Write sessions under way, by org (./write-sessions.ts). */
  private readonly sessions: WriteSessions;
  private globalResets = 0;
  /** Set while this replica applies what others did: those resets and evictions are not sent back. */
  private quiet = false;
  private closed = false;
  /** The id of the Redis data this replica follows (see `recover`). */
  private instance = '';
  private recovering: Promise<void> | null = null;
  /**
   * Called after an append that scheduled attempts, with the real time the earliest of them falls due: the claim
   * poller looks then (at once when it is due now), instead of polling the shared schedule all the time.
   */
  onScheduled: (realDue: number) => void = () => undefined;

  constructor(
    private readonly link: RedisLink,
    private readonly keys: ReplicationKeys,
    private readonly store: Store,
    private readonly settings: ReplicaSettings,
    private readonly warn: (message: string) => void,
    /** Claims this Redis for the mock (config and instance id, first come first served) and answers the instance id. */
    private readonly claimRedis: () => Promise<string>,
  ) {
    this.sessions = new WriteSessions(this.id, settings, (org, token, rate) => this.gate(org, token, rate), warn);
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

  /** Joins the Redis data (its instance id); before the first request. */
  async join(): Promise<void> {
    this.instance = await this.claimRedis();
  }

  /**
   * Redis lost its data: every copy here is stale. Drops them all (quietly: nothing to tell the others), joins the
   * data Redis holds now (claiming it anew if no replica did yet), and fails the request that found out (503).
   */
  private async lost(): Promise<never> {
    this.recovering ??= (async () => {
      this.warn('Redis lost the shared state (restarted without persistence, or flushed): every tenant starts afresh');
      this.outboxes.clear();
      this.withQuiet(() => this.store.resetAll());
      this.instance = await this.claimRedis();
      // The claim may have adopted another webhook key: a tenant made meanwhile got its secret from the one before.
      this.withQuiet(() => this.store.resetAll());
    })().finally(() => {
      this.recovering = null;
    });
    await this.recovering;
    throw new SharedStateLostError('Redis lost the shared state; every tenant starts afresh: retry');
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
      // Without a lock token the gate never answers 'locked'.
      const taken = await this.gate(org, '', options.rate);
      return this.entered(org, null, taken === 'locked' ? null : taken);
    }
    const { session, taken } = await this.sessions.open(org, options.rate);
    return this.entered(org, session, taken);
  }

  private entered(org: string, session: WriteSession | null, taken: Take | null): Entry {
    this.active.set(org, (this.active.get(org) ?? 0) + 1);
    return { org, session, taken: taken ?? undefined, left: false };
  }

  /** Ends a request: appends what it wrote (the last of a write session also releases the lock) before its answer. */
  async leave(entry: Entry): Promise<void> {
    if (entry.left) return;
    entry.left = true;
    const n = (this.active.get(entry.org) ?? 1) - 1;
    if (n > 0) this.active.set(entry.org, n);
    else this.active.delete(entry.org);
    const session = entry.session;
    if (!session) {
      // A reading request wrote nothing: it does not wait for other requests' appends.
      if (this.outboxes.has(entry.org)) await this.flush(entry.org);
      return;
    }
    if (!this.sessions.leave(entry.org, session)) {
      // What this request wrote is in the outbox or in an append under way: the flush waits for either.
      await this.flush(entry.org);
      return;
    }
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
      [k.meta(org), k.log(org), k.lock(org), k.rate(org), k.globalEpoch, k.instance],
      [
        position.epoch,
        position.last,
        token,
        this.settings.lockMs,
        rate?.limit ?? 0,
        rate?.windowMs ?? 1000,
        this.instance,
      ],
    )) as [string, string?, unknown?, number?, number?, number?];
    if (reply[0] === 'locked') return 'locked';
    if (reply[0] === 'lost') return this.lost();
    const [, epoch = '', entries, taken = 1, value = -1, waiting = 0] = reply;
    // Another replica waits for this tenant's lock: the session holding it takes no newcomers, so it ends soon.
    if (waiting === 1) this.sessions.stopAdmitting(org);
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
    const args: (string | number)[] = [token, org, changes.length, this.id, this.instance];
    for (const change of changes) args.push(encodeChange(change, this.id), apiKeyValueOf(change));
    let earliestDue = Number.POSITIVE_INFINITY;
    for (const op of ops) {
      if (op.kind === 's') {
        args.push('s', op.id, JSON.stringify(op.job), Math.round(op.realDue));
        earliestDue = Math.min(earliestDue, op.realDue);
      } else args.push('c', op.id, '', 0);
    }
    const sent = this.link.run(
      'opsapiAppend',
      [k.meta(org), k.log(org), k.rate(org), k.globalEpoch, k.apiKeys, k.lock(org), k.jobs(org), k.due, k.instance],
      args,
    ) as Promise<[string, string, string[], string]>;
    return this.appended(org, reset, sent, earliestDue);
  }

  /** What follows an append's answer: the copy's position moves on, or it reads again what came in between. */
  private async appended(
    org: string,
    reset: Promise<unknown> | null,
    sent: Promise<[string, string, string[], string]>,
    earliestDue: number,
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
    if (earliestDue !== Number.POSITIVE_INFINITY) this.onScheduled(earliestDue);
    if ((reply[0] as string) === 'lost') return this.lost();
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
