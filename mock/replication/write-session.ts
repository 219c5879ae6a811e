/**
 * A replica's hold on one tenant's write lock, shared by the writing requests of that tenant it answers meanwhile.
 * Inside one process the handlers of a tenant already run one at a time (the event loop), so the Redis lock only has
 * to keep OTHER replicas out: the first writing request takes it, the ones that come while it is held join without a
 * round trip, and the last to leave releases it. A session admits newcomers for a short while only (`maxOpenMs`), so a
 * replica under a constant stream of writes still lets the others take their turn.
 */
export class WriteSession {
  private users = 0;
  private readonly since = Date.now();
  private closing = false;
  /** Another replica waits for the lock: no newcomers, and this replica lets the other go first next time. */
  yielding = false;
  /** Settles once the lock is taken (or could not be). */
  readonly acquired: Promise<void>;
  /** Settles once the lock was released and the session is over. */
  readonly ended: Promise<void>;
  private settleAcquired!: (error?: Error) => void;
  private settleEnded!: () => void;

  constructor(
    readonly token: string,
    private readonly maxOpenMs: number,
  ) {
    this.acquired = new Promise<void>((resolve, reject) => {
      this.settleAcquired = (error) => (error ? reject(error) : resolve());
    });
    // A session whose lock was never taken is still awaited by joiners; they see the rejection themselves.
    this.acquired.catch(() => undefined);
    this.ended = new Promise<void>((resolve) => {
      this.settleEnded = resolve;
    });
  }

  /** Whether a writing request arriving now may join (the session is young and not ending). */
  admits(now: number): boolean {
    return !this.closing && !this.yielding && now - this.since < this.maxOpenMs;
  }

  /** Takes no newcomers any more (another replica waits for the lock). */
  stopAdmitting(): void {
    this.yielding = true;
  }

  /** Milliseconds since the session began. */
  age(): number {
    return Date.now() - this.since;
  }

  join(): void {
    this.users++;
  }

  /** One request left; true when it was the last (the caller then releases the lock and calls `end`). */
  leave(): boolean {
    this.users--;
    if (this.users > 0) return false;
    this.closing = true;
    return true;
  }

  lockTaken(): void {
    this.settleAcquired();
  }

  lockFailed(error: Error): void {
    this.closing = true;
    this.settleAcquired(error);
  }

  end(): void {
    this.closing = true;
    this.settleEnded();
  }
}
