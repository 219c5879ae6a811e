import { afterEach, describe, expect, it } from 'vitest';
import type { Change } from '../../store/change.js';
import { silentEngine } from './silent-engine.js';

const SUBSCRIPTIONS = 4;

/**
 * A tenant at both of its notification bounds (docs/DESIGN.md, "Shared sandbox"), fanning out to receivers that never
 * answer: each fan-out ends its oldest Pending notifications and forgets its oldest finished ones. One ended and
 * forgotten by the same fan-out is written once, as forgotten; one only ended is written as a Failure with the reason.
 */
function setUp(maxPending: number, maxKept: number) {
  const parts = silentEngine(
    { maxPendingPerTenant: maxPending, maxNotificationsPerTenant: maxKept },
    SUBSCRIPTIONS,
    (i) => `https://receiver${i}.example/hooks`,
  );
  const writes: Change<'notification'>[] = [];
  parts.store.onChange((change) => {
    if (change.entity === 'notification') writes.push(change as Change<'notification'>);
  });
  return { ...parts, writes, close: () => parts.engine.close() };
}

describe('the notification bounds of a fan-out', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    // The receivers never answer: the attempts under way are dropped with the engine, not waited for.
    void close?.();
    close = undefined;
  });

  it('at both bounds, forgets the notifications it ends without writing them as Failure first', () => {
    const { tenant, writes, emit, ...rest } = setUp(8, 8);
    close = rest.close;
    const first = emit();
    emit();
    expect(tenant.pendingNotifications.size).toBe(8);
    writes.length = 0;
    const third = emit();
    // Four made, the four oldest Pending (the first fan-out's) ended and forgotten: eight writes, no Failure among them.
    expect(writes.map((w) => (w.after === null ? 'forgotten' : w.after.status))).toEqual([
      ...third.map(() => 'Pending'),
      ...first.map(() => 'forgotten'),
    ]);
    expect(writes.slice(4).map((w) => w.id)).toEqual(first);
    for (const id of first) expect(tenant.notifications.has(id)).toBe(false);
    expect(tenant.notifications.size).toBe(8);
    expect(tenant.pendingNotifications.size).toBe(8);
  });

  it('with room for finished notifications, ends the oldest Pending ones as Failure with the reason', () => {
    const { tenant, writes, emit, ...rest } = setUp(8, 10);
    close = rest.close;
    const first = emit();
    emit();
    writes.length = 0;
    emit();
    // 12 notifications, 10 kept: two of the four ended are forgotten at once, the two newer of them kept as Failure.
    const forgotten = writes.filter((w) => w.after === null).map((w) => w.id);
    expect(forgotten).toEqual(first.slice(0, 2));
    const ended = writes.filter((w) => w.after?.status === 'Failure');
    expect(ended.map((w) => w.id)).toEqual(first.slice(2));
    for (const w of ended) expect(w.after?.failureReason).toMatch(/--max-pending-notifications/);
    expect(tenant.notifications.size).toBe(10);
    expect(tenant.pendingNotifications.size).toBe(8);
  });
});
