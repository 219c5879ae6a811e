/**
 * Bounds how many async tasks run at once; the rest wait in FIFO order. A finishing task hands its slot straight
 * to the first waiter, so a newcomer never overtakes a waiting task and `idle` is exact at every moment.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`a semaphore needs a positive integer limit, got ${limit}`);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes to the next waiter (active unchanged) or is released.
      if (next) next();
      else this.active--;
    }
  }

  /** Tasks running now. */
  get inFlight(): number {
    return this.active;
  }

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Nothing runs and nothing waits. */
  get idle(): boolean {
    return this.active === 0 && this.waiting.length === 0;
  }
}

/**
 * Two levels of bounds: at most `perKey` tasks per key (a receiver's origin) and at most the global semaphore's
 * limit over all keys. A task waiting for its key holds no global slot, so many tasks for one slow or hanging
 * receiver take at most `perKey` of the global slots and every other receiver keeps being served.
 */
export class KeyedSemaphore {
  private readonly keys = new Map<string, Semaphore>();

  constructor(
    private readonly global: Semaphore,
    private readonly perKey: number,
  ) {}

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    let semaphore = this.keys.get(key);
    if (!semaphore) {
      semaphore = new Semaphore(this.perKey);
      this.keys.set(key, semaphore);
    }
    const own = semaphore;
    try {
      return await own.run(() => this.global.run(task));
    } finally {
      if (own.idle && this.keys.get(key) === own) this.keys.delete(key);
    }
  }

  /** Keys with a task running or waiting. */
  get activeKeys(): number {
    return this.keys.size;
  }
}
