import { describe, expect, it } from 'vitest';
import { defaultOptions } from '../../options.js';
import { firstAttempt, manualRetry, next, resumedAttempt, type PlannedAttempt, type Status } from '../policy.js';
import type { AttemptOutcome } from '../transport.js';

/** What the policy reads of a notification, and of an attempt's outcome. */
type NotificationView = Parameters<typeof next>[0];
type Outcome = Parameters<typeof next>[2];

const CREATED = Date.UTC(2026, 0, 5, 8, 0, 0);
const SECOND = 1000;
const SCHEDULE = defaultOptions().retrySchedule;

/** Sum of the first `n` delays of the schedule, seconds. */
const cumulative = (schedule: readonly number[], n: number) => schedule.slice(0, n).reduce((a, b) => a + b, 0);

const pending: NotificationView = { status: 'Pending', generation: 0, subscribed: true };
const success: Outcome = { success: true };
const failure: Outcome = { success: false };

/** The k-th automatic attempt (0-based) of the default schedule, due where the schedule puts it. */
const automatic = (k: number, generation = 0): PlannedAttempt => ({
  trigger: 'Scheduled',
  dueAt: CREATED + cumulative(SCHEDULE, k + 1) * SECOND,
  auto: k,
  generation,
});

/** Every way an attempt fails, as the transport reports it. */
const FAILURES: [string, AttemptOutcome][] = [
  [
    'a non-2xx status (500)',
    {
      success: false,
      responseStatus: 500,
      responseBodyExcerpt: 'boom',
      errorKind: 'HttpStatus',
      startedAtMs: 0,
      endedAtMs: 1,
    },
  ],
  [
    'a redirect, never followed (302)',
    {
      success: false,
      responseStatus: 302,
      responseBodyExcerpt: '',
      errorKind: 'HttpStatus',
      startedAtMs: 0,
      endedAtMs: 1,
    },
  ],
  [
    'a timeout',
    {
      success: false,
      responseStatus: null,
      responseBodyExcerpt: null,
      errorKind: 'Timeout',
      startedAtMs: 0,
      endedAtMs: 10_000,
    },
  ],
  [
    'a timeout after the status line came',
    {
      success: false,
      responseStatus: 200,
      responseBodyExcerpt: null,
      errorKind: 'Timeout',
      startedAtMs: 0,
      endedAtMs: 10_000,
    },
  ],
  [
    'a network error',
    {
      success: false,
      responseStatus: null,
      responseBodyExcerpt: null,
      errorKind: 'ConnectionError',
      startedAtMs: 0,
      endedAtMs: 1,
    },
  ],
  [
    'a blocked endpoint (SSRF guard)',
    {
      success: false,
      responseStatus: null,
      responseBodyExcerpt: null,
      errorKind: 'BlockedEndpoint',
      startedAtMs: 0,
      endedAtMs: 0,
    },
  ],
];

describe('the first automatic attempt', () => {
  it('is due at creation plus the first delay of the schedule (immediately by default)', () => {
    expect(firstAttempt(CREATED, SCHEDULE)).toEqual({ trigger: 'Scheduled', dueAt: CREATED, auto: 0, generation: 0 });
    expect(firstAttempt(CREATED, [2, 60]).dueAt).toBe(CREATED + 2 * SECOND);
    expect(firstAttempt(CREATED, []).dueAt).toBe(CREATED);
  });
});

describe('Pending -> Success (States and transitions: the receiver answers 2xx)', () => {
  it.each(SCHEDULE.map((_, k) => [k + 1] as const))(
    'after automatic attempt %i: Success, nothing more scheduled',
    (n) => {
      expect(next(pending, automatic(n - 1), success, SCHEDULE)).toEqual({
        decided: true,
        status: 'Success',
        next: null,
      });
    },
  );
});

describe('Pending -> Pending: a failed automatic attempt with schedule left waits for the next delay (inferred)', () => {
  const rows = SCHEDULE.slice(1).map((delay, k) => [k + 1, delay, cumulative(SCHEDULE, k + 2)] as const);
  it.each(rows)('after failed attempt %i the next is due %i s later, at creation + %i s', (n, delay, fromCreation) => {
    const attempt = automatic(n - 1);
    const transition = next(pending, attempt, failure, SCHEDULE);
    expect(transition).toEqual({
      decided: true,
      status: 'Pending',
      next: { trigger: 'Scheduled', dueAt: attempt.dueAt + delay * SECOND, auto: n, generation: 0 },
    });
    expect(transition.decided && transition.next?.dueAt).toBe(CREATED + fromCreation * SECOND);
  });

  it('walks the default schedule: immediately, 5s, 5m, 30m, 2h, 5h, 10h, 10h after each previous due time', () => {
    expect(SCHEDULE).toEqual([0, 5, 300, 1800, 7200, 18000, 36000, 36000]);
    const due: number[] = [];
    let attempt: PlannedAttempt | null = firstAttempt(CREATED, SCHEDULE);
    for (let guard = 0; attempt && guard < 20; guard++) {
      due.push((attempt.dueAt - CREATED) / SECOND);
      const transition = next(pending, attempt, failure, SCHEDULE);
      attempt = transition.decided ? transition.next : null;
    }
    expect(due).toEqual([0, 5, 305, 2105, 9305, 27305, 63305, 99305]);
  });
});

describe('Pending -> Failure (States and transitions: automatic attempts exhausted)', () => {
  it('after the last attempt of the schedule fails: Failure, nothing more scheduled', () => {
    expect(next(pending, automatic(SCHEDULE.length - 1), failure, SCHEDULE)).toEqual({
      decided: true,
      status: 'Failure',
      next: null,
    });
  });

  it('after the only attempt of a one-entry schedule, and with an empty schedule', () => {
    expect(next(pending, firstAttempt(CREATED, [0]), failure, [0])).toEqual({
      decided: true,
      status: 'Failure',
      next: null,
    });
    expect(next(pending, firstAttempt(CREATED, []), failure, [])).toEqual({
      decided: true,
      status: 'Failure',
      next: null,
    });
  });
});

describe('every kind of failure counts alike (inferred)', () => {
  it.each(FAILURES)(
    '%s keeps a first attempt Pending with the retry at +5s, and ends the last one Failure',
    (_what, outcome) => {
      expect(next(pending, automatic(0), outcome, SCHEDULE)).toEqual({
        decided: true,
        status: 'Pending',
        next: { trigger: 'Scheduled', dueAt: CREATED + 5 * SECOND, auto: 1, generation: 0 },
      });
      expect(next(pending, automatic(SCHEDULE.length - 1), outcome, SCHEDULE)).toEqual({
        decided: true,
        status: 'Failure',
        next: null,
      });
    },
  );

  it.each(FAILURES)('%s ends a manual attempt Failure', (_what, outcome) => {
    const { attempt } = manualRetry(pending, CREATED);
    expect(next({ ...pending, generation: attempt.generation }, attempt, outcome, SCHEDULE)).toEqual({
      decided: true,
      status: 'Failure',
      next: null,
    });
  });
});

describe('manual retry (inferred: allowed in any state, Pending while it runs, ended by its own attempt)', () => {
  const NOW = CREATED + 3600 * SECOND;
  const states: [Status, number][] = [
    ['Pending', 0],
    ['Success', 0],
    ['Failure', 0],
    ['Failure', 2],
  ];

  it.each(states)(
    'from %s (generation %i): Pending, automatic attempts cancelled, a Manual attempt due now in a new generation',
    (status, generation) => {
      expect(manualRetry({ status, generation, subscribed: true }, NOW)).toEqual({
        status: 'Pending',
        next: null,
        attempt: { trigger: 'Manual', dueAt: NOW, auto: 0, generation: generation + 1 },
      });
    },
  );

  it.each(states)(
    'from %s: the manual attempt ends Success on 2xx and Failure otherwise, and never schedules a retry',
    (status, generation) => {
      const { attempt } = manualRetry({ status, generation, subscribed: true }, NOW);
      const during: NotificationView = { status: 'Pending', generation: attempt.generation, subscribed: true };
      expect(next(during, attempt, success, SCHEDULE)).toEqual({ decided: true, status: 'Success', next: null });
      expect(next(during, attempt, failure, SCHEDULE)).toEqual({ decided: true, status: 'Failure', next: null });
    },
  );

  it('an automatic attempt still under way when the manual retry started is recorded only: it decides nothing', () => {
    const late = automatic(0, 0);
    const { attempt } = manualRetry(pending, NOW);
    for (const status of ['Pending', 'Success', 'Failure'] as const) {
      const view: NotificationView = { status, generation: attempt.generation, subscribed: true };
      expect(next(view, late, failure, SCHEDULE)).toEqual({ decided: false });
      expect(next(view, late, success, SCHEDULE)).toEqual({ decided: false });
    }
  });
});

describe('after the subscription was deleted (inferred: a notification is a self-contained record)', () => {
  const gone: NotificationView = { status: 'Pending', generation: 0, subscribed: false };

  it.each(['Pending', 'Success', 'Failure'] as const)(
    'a manual retry from %s still re-delivers, exactly as with the subscription in place',
    (status) => {
      const NOW = CREATED + 60 * SECOND;
      expect(manualRetry({ status, generation: 0, subscribed: false }, NOW)).toEqual(
        manualRetry({ status, generation: 0, subscribed: true }, NOW),
      );
    },
  );

  it('its automatic attempts keep their schedule and its outcomes their transitions', () => {
    for (let k = 0; k < SCHEDULE.length; k++) {
      for (const outcome of [success, failure])
        expect(next(gone, automatic(k), outcome, SCHEDULE)).toEqual(next(pending, automatic(k), outcome, SCHEDULE));
    }
  });
});

describe('resuming a restored Pending notification (inferred)', () => {
  const NOW = CREATED + 10 * SECOND;

  it('keeps its nextAttemptAt and the count of automatic attempts made, so the schedule continues where it was', () => {
    const resumed = resumedAttempt(CREATED + 305 * SECOND, 2, NOW);
    expect(resumed).toEqual({ trigger: 'Scheduled', dueAt: CREATED + 305 * SECOND, auto: 2, generation: 0 });
    expect(next(pending, resumed, failure, SCHEDULE)).toMatchObject({
      status: 'Pending',
      next: { dueAt: CREATED + 2105 * SECOND, auto: 3 },
    });
  });

  it('is due now when an attempt was under way at shutdown (no nextAttemptAt)', () => {
    expect(resumedAttempt(null, 1, NOW)).toEqual({ trigger: 'Scheduled', dueAt: NOW, auto: 1, generation: 0 });
  });
});
