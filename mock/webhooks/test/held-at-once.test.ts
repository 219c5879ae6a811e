import { afterEach, describe, expect, it } from 'vitest';
import { silentEngine } from './silent-engine.js';

const SUBSCRIPTIONS = 20;
/** Per receiver: in flight at once, and waiting for a slot before more are held (engine.ts `holdWhenFull`). */
const PER_ENDPOINT = 4;

/**
 * A fan-out to one receiver that never answers (docs/DESIGN.md, "Shared sandbox"): once the receiver's batch of waiting
 * attempts is full, a new notification's first attempt, due at once, is held at once instead of passing through the
 * schedule for one turn only to be held then; what starts, and in which order, is unchanged.
 */
function setUp() {
  return silentEngine(
    { perTenantConcurrency: 16, perEndpointConcurrency: PER_ENDPOINT },
    SUBSCRIPTIONS,
    (i) => `https://receiver.example/hooks/${i}`,
  );
}

describe('a fan-out to a receiver whose batch is full', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(() => {
    // The receiver never answers: the attempts under way are dropped with the engine, not waited for.
    void close?.();
    close = undefined;
  });

  it('holds the new attempts at once, outside the schedule, and starts them as the receiver has room', async () => {
    const { time, transport, engine, emit } = setUp();
    close = () => engine.close();
    const first = emit();
    // The receiver's batch is not full yet: the first fan-out is scheduled, and starts on the next turn.
    expect(engine.pendingCount()).toBe(SUBSCRIPTIONS);
    await time.settle();
    expect(engine.pendingCount()).toBe(0);
    expect(transport.requests).toHaveLength(PER_ENDPOINT);
    expect(engine.deliveryLoad().total).toEqual({ active: PER_ENDPOINT, waiting: SUBSCRIPTIONS - PER_ENDPOINT });

    const second = emit();
    // Full: nothing of the second fan-out enters the schedule; it waits, held, behind the first.
    expect(engine.pendingCount()).toBe(0);
    expect(engine.deliveryLoad().total).toEqual({ active: PER_ENDPOINT, waiting: 2 * SUBSCRIPTIONS - PER_ENDPOINT });
    await time.settle();
    expect(transport.requests).toHaveLength(PER_ENDPOINT);
    expect(first.length + second.length).toBe(2 * SUBSCRIPTIONS);
  });
});
