import { describe, expect, it } from 'vitest';
import { judgeAll } from '../judges/index.js';
import { pendingOf } from '../pending.js';
import type { Trace } from '../trace.js';
import { delivery, LATER, OPTIONS, page, readSku, refusedSku, req, subscription, trace } from './traces.js';

const judge = (id: string, t: Trace, now = LATER) => {
  const j = judgeAll(t, OPTIONS, now).find((r) => r.id === id);
  if (!j) throw new Error(id);
  return j;
};

/** A skip says it was not exercised and what would exercise it. */
const expectSkip = (id: string, t: Trace, now = LATER) => {
  const j = judge(id, t, now);
  expect(j.outcome).toBe('skip');
  expect(j.reason).toMatch(/^not exercised by the client's traffic: .+ would exercise it$/);
  return j;
};

describe('client.auth-bearer', () => {
  const id = 'client.auth-bearer';
  it('passes Bearer in any case, fails a bare token or a token under another scheme, skips without credentials', () => {
    expect(
      judge(id, trace({ requests: [req({ auth: { shape: 'bearer', scheme: 'bEaReR', jwt: true } })] })).outcome,
    ).toBe('pass');
    const bare = judge(id, trace({ requests: [req({ auth: { shape: 'no-scheme', jwt: true } })] }));
    expect(bare.outcome).toBe('fail');
    expect(bare.evidence[0]?.actual).toBe('a token without a scheme');
    expect(bare.evidence[0]?.request?.headers.authorization).toBe('<redacted>');
    const token = judge(id, trace({ requests: [req({ auth: { shape: 'other', scheme: 'Token', jwt: true } })] }));
    expect(token.evidence[0]?.request?.headers.authorization).toBe('Token <redacted>');
    expect(
      judge(id, trace({ requests: [req({ auth: { shape: 'other', scheme: 'Basic', jwt: false } })] })).outcome,
    ).toBe('pass');
    expectSkip(id, trace({ requests: [req({ auth: { shape: 'absent', jwt: false } })] }));
  });
  it('does not judge answers forced with Prefer', () => {
    expectSkip(id, trace({ requests: [req({ answeredBy: 'prefer', auth: { shape: 'no-scheme', jwt: true } })] }));
  });
});

describe('client.body-content-type', () => {
  const id = 'client.body-content-type';
  const body = { bytes: 2, digest: 'ab' };
  it('passes application/json with parameters, fails another type or none, skips without a body', () => {
    expect(
      judge(id, trace({ requests: [req({ body, contentType: 'Application/JSON; charset=utf-8' })] })).outcome,
    ).toBe('pass');
    const wrong = judge(id, trace({ requests: [req({ body, contentType: 'text/plain' }), req({ body })] }));
    expect(wrong.outcome).toBe('fail');
    expect(wrong.failureCount).toBe(2);
    expect(wrong.evidence.map((e) => e.actual)).toEqual(['text/plain', 'no Content-Type']);
    expectSkip(id, trace({ requests: [req()] }));
  });
});

describe('client.paging-bounds', () => {
  const id = 'client.paging-bounds';
  it('passes the defaults and the bounds, fails 0, 1001 or a non-integer, skips without a list request', () => {
    expect(
      judge(id, trace({ requests: [req({ list: {} }), page(1, 1, { list: { pageSize: '1000' } })] })).outcome,
    ).toBe('pass');
    const bad = judge(
      id,
      trace({
        requests: [
          req({ list: { pageNumber: '0' } }),
          req({ list: { pageSize: '1001' } }),
          req({ list: { pageSize: 'x' } }),
        ],
      }),
    );
    expect(bad.outcome).toBe('fail');
    expect(bad.failureCount).toBe(3);
    expect(bad.evidence[0]?.message).toMatch(/pageNumber out of bounds/);
    expectSkip(id, trace({ requests: [req({ operationId: 'getError', path: '/v1/errors/X' })] }));
  });
});

describe('client.filter-encoding', () => {
  const id = 'client.filter-encoding';
  it('passes %26%26, fails a raw && that split the query, skips without && in a filter', () => {
    const encoded = req({
      rawQuery: 'filterBy=name%5BContains%5Da%20%26%26%20status%5BEquals%5DActive',
      list: { filterBy: 'name[Contains]a && status[Equals]Active' },
    });
    expect(judge(id, trace({ requests: [encoded] })).outcome).toBe('pass');
    const raw = req({
      rawQuery: 'filterBy=name[Contains]a&&status[Equals]Active',
      list: { filterBy: 'name[Contains]a' },
    });
    const j = judge(id, trace({ requests: [encoded, raw] }));
    expect(j.outcome).toBe('fail');
    expect(j.evidence[0]?.actual).toBe('/v1/items/skus?filterBy=name[Contains]a&&status[Equals]Active');
    const halfEncoded = req({ rawQuery: 'filterBy=a[Equals]1&%26b[Equals]2' });
    expect(judge(id, trace({ requests: [halfEncoded] })).outcome).toBe('fail');
    expectSkip(id, trace({ requests: [req({ rawQuery: 'filterBy=a[Equals]1&pageSize=2' })] }));
  });
});

describe('client.page-walk-stops and client.page-walk-complete', () => {
  it('pass a walk that stops at totalPages and reads every page', () => {
    const t = trace({ requests: [page(1, 3), page(2, 3), page(3, 3)] });
    expect(judge('client.page-walk-stops', t).outcome).toBe('pass');
    expect(judge('client.page-walk-complete', t).outcome).toBe('pass');
  });
  it('fail a page asked past totalPages, and a walk that leaves a page unread', () => {
    const past = judge('client.page-walk-stops', trace({ requests: [page(1, 2), page(2, 2), page(3, 2)] }));
    expect(past.outcome).toBe('fail');
    expect(past.evidence[0]?.message).toMatch(/page 3 asked after the list told totalPages 2/);
    const gap = judge('client.page-walk-complete', trace({ requests: [page(1, 3), page(3, 3)] }));
    expect(gap.outcome).toBe('fail');
    expect(gap.evidence[0]?.message).toMatch(/left pages unread: 2/);
  });
  it('keep walks apart by size, filter and sort', () => {
    const other = page(2, 5, { list: { pageNumber: '2', pageSize: '50', totalPages: 5 } });
    const t = trace({ requests: [page(1, 1), other] });
    expect(judge('client.page-walk-stops', t).outcome).toBe('skip');
  });
  it('skip a client that never walks past the first page', () => {
    expectSkip('client.page-walk-stops', trace({ requests: [page(1, 4)] }));
    expectSkip('client.page-walk-complete', trace({ requests: [page(1, 4)] }));
  });
});

describe('client.retry-after-wait and client.retry-after-retries', () => {
  const refused = (at: number) =>
    page(2, 3, {
      at,
      answeredAt: at,
      status: 429,
      answeredBy: 'injected',
      retryAfter: { header: 'Retry-After', delayMs: 1000 },
    });
  it('pass a retry after the delay', () => {
    const t = trace({ requests: [refused(100), page(2, 3, { at: 1150 })] });
    expect(judge('client.retry-after-wait', t).outcome).toBe('pass');
    expect(judge('client.retry-after-retries', t).outcome).toBe('pass');
  });
  it('fail a retry before the delay, naming the header', () => {
    const j = judge('client.retry-after-wait', trace({ requests: [refused(100), page(2, 3, { at: 400 })] }));
    expect(j.outcome).toBe('fail');
    expect(j.evidence[0]?.expected).toBe('not before 1000 ms (Retry-After)');
  });
  it('fail a refused request never sent again once its window passed; pending before', () => {
    const t = trace({ requests: [refused(100)] });
    expect(judge('client.retry-after-retries', t).outcome).toBe('fail');
    const early = judge('client.retry-after-retries', t, 2000);
    expect(early.outcome).toBe('skip');
    expect(early.reason).toMatch(/^not judged yet: 1 observation pending/);
  });
  it('fail a refused request sent again only after the window that follows the delay', () => {
    const late = judge('client.retry-after-retries', trace({ requests: [refused(100), page(2, 3, { at: 6300 })] }));
    expect(late.outcome).toBe('fail');
    expect(late.evidence[0]?.message).toMatch(/not sent again within 5000 ms after the delay/);
    expect(late.evidence[0]?.actual).toMatch(/^sent again \d+ ms after the delay \(request \d+\)$/);
  });
  it('judge a real 429 too, never one forced with Prefer', () => {
    const real = { ...refused(100), answeredBy: 'api' as const };
    expect(judge('client.retry-after-wait', trace({ requests: [real, page(2, 3, { at: 200 })] })).outcome).toBe('fail');
    expectSkip('client.retry-after-wait', trace({ requests: [{ ...refused(100), answeredBy: 'prefer' }] }));
  });
});

describe('client.retry-after-wait and client.retry-after-retries: the same request for another reason', () => {
  // A read of SKU-1 refused at 100 (its delay passes at 1101); a delivery of a new event naming SKU-1 at 1500.
  const newEvent = () => delivery({ eventId: 'e2', sentAt: 1500, answer: { status: 204, at: 1510 } });
  it('do not take the read a new event prompted for the retry of a client that never retries', () => {
    const t = trace({ requests: [refusedSku('SKU-1', 100), readSku('SKU-1', 1600)], deliveries: [newEvent()] });
    const j = judge('client.retry-after-retries', t);
    expect(j.outcome).toBe('fail');
    expect(j.evidence[0]?.message).toMatch(/refused with 429 and never sent again/);
  });
  it('pass a client that retries and also reads the entity a new event names', () => {
    const t = trace({
      requests: [refusedSku('SKU-1', 100), readSku('SKU-1', 1150), readSku('SKU-1', 1600)],
      deliveries: [newEvent()],
    });
    expect(judge('client.retry-after-wait', t).outcome).toBe('pass');
    expect(judge('client.retry-after-retries', t).outcome).toBe('pass');
  });
  it('do not take the read of a new event within the delay for an early retry', () => {
    const early = delivery({ eventId: 'e2', sentAt: 300, answer: { status: 204, at: 310 } });
    const t = trace({
      requests: [refusedSku('SKU-1', 100), readSku('SKU-1', 350), readSku('SKU-1', 1150)],
      deliveries: [early],
    });
    expect(judge('client.retry-after-wait', t).outcome).toBe('pass');
    expect(judge('client.retry-after-retries', t).outcome).toBe('pass');
  });
  it('explain one read per new event: a re-send at once is still early', () => {
    const early = delivery({ eventId: 'e2', sentAt: 102, answer: { status: 204, at: 110 } });
    const t = trace({
      requests: [refusedSku('SKU-1', 100), readSku('SKU-1', 105), readSku('SKU-1', 120)],
      deliveries: [early],
    });
    expect(judge('client.retry-after-wait', t).outcome).toBe('fail');
  });
  it('explain nothing by a delivery of an event seen before: the duplicate, the retry of a notification', () => {
    const first = delivery({ eventId: 'e1', sentAt: 50, answer: { status: 204, at: 60 } });
    const dup = delivery({ eventId: 'e1', kind: 'duplicate', sentAt: 300, answer: { status: 204, at: 310 } });
    const again = delivery({ eventId: 'e1', sentAt: 400, answer: { status: 204, at: 410 } });
    const t = trace({
      requests: [refusedSku('SKU-1', 100), readSku('SKU-1', 420)],
      deliveries: [first, dup, again],
    });
    expect(judge('client.retry-after-wait', t).outcome).toBe('fail');
    expect(judge('client.retry-after-retries', t).outcome).toBe('pass');
  });
  it('explain nothing by a delivery naming another entity, or sent before the refused request', () => {
    const other = delivery({ eventId: 'e2', sentAt: 1500, entity: { field: 'skuReference', value: 'SKU-2' } });
    const before = delivery({ eventId: 'e3', sentAt: 90, answer: { status: 204, at: 95 } });
    const t = trace({ requests: [refusedSku('SKU-1', 100), readSku('SKU-1', 1600)], deliveries: [before, other] });
    expect(judge('client.retry-after-retries', t).outcome).toBe('pass');
  });
});

describe('receiver checks', () => {
  it('client.receiver-accepts: pass 2xx, fail another status or no answer, skip without a delivery', () => {
    expect(judge('client.receiver-accepts', trace({ deliveries: [delivery()] })).outcome).toBe('pass');
    const refused = judge(
      'client.receiver-accepts',
      trace({ deliveries: [delivery({ answer: { status: 401, at: 1010 } })] }),
    );
    expect(refused.outcome).toBe('fail');
    expect(refused.evidence[0]?.actual).toBe('401 after 10 ms');
    expectSkip('client.receiver-accepts', trace());
  });
  it('client.receiver-raw-body: judges the re-serialisation-sensitive delivery', () => {
    const d = delivery({ kind: 'raw-sensitive', answer: { status: 401, at: 1010 } });
    expect(judge('client.receiver-raw-body', trace({ deliveries: [delivery(), d] })).outcome).toBe('fail');
    expectSkip('client.receiver-raw-body', trace({ deliveries: [delivery()] }));
  });
  it('client.receiver-rejects-forged: fails when the entity only a forged delivery named is read', () => {
    const forged = delivery({
      kind: 'wrong-key',
      entity: { field: 'skuReference', value: 'forged-x' },
      answer: { status: 200, at: 1010 },
    });
    const processed = judge(
      'client.receiver-rejects-forged',
      trace({ deliveries: [forged], requests: [readSku('forged-x', 1100)] }),
    );
    expect(processed.outcome).toBe('fail');
    expect(processed.evidence[0]?.message).toMatch(/processed: request \d+/);
    expect(judge('client.receiver-rejects-forged', trace({ deliveries: [forged] })).outcome).toBe('pass');
    expect(judge('client.receiver-rejects-forged', trace({ deliveries: [forged] }), 2000).reason).toMatch(
      /not judged yet/,
    );
    expectSkip('client.receiver-rejects-forged', trace({ deliveries: [delivery()] }));
  });
  it('client.receiver-refuses-forged: a 2xx or no answer to a forged delivery fails', () => {
    const refused = delivery({ kind: 'hex-63', answer: { status: 401, at: 1010 } });
    expect(judge('client.receiver-refuses-forged', trace({ deliveries: [refused] })).outcome).toBe('pass');
    const accepted = delivery({ kind: 'non-hex' });
    expect(judge('client.receiver-refuses-forged', trace({ deliveries: [refused, accepted] })).outcome).toBe('fail');
  });
  it('client.receiver-fast: fails an answer after answerWithinMs or a time-out', () => {
    expect(judge('client.receiver-fast', trace({ deliveries: [delivery()] })).outcome).toBe('pass');
    const slow = delivery({ answer: { status: 200, at: 1000 + 2500 } });
    expect(judge('client.receiver-fast', trace({ deliveries: [slow] })).outcome).toBe('fail');
    const timeout = delivery({ answer: { error: 'timeout', at: 11000 } });
    expect(judge('client.receiver-fast', trace({ deliveries: [timeout] })).evidence[0]?.actual).toMatch(
      /no answer \(timeout\)/,
    );
  });
  it('client.receiver-dedup: fails when the reads after the first delivery are repeated after the duplicate', () => {
    const first = delivery({ eventId: 'e1', sentAt: 1000 });
    const dup = delivery({ eventId: 'e1', kind: 'duplicate', sentAt: 2000, answer: { status: 200, at: 2010 } });
    const once = trace({ deliveries: [first, dup], requests: [readSku('SKU-1', 1100)] });
    expect(judge('client.receiver-dedup', once).outcome).toBe('pass');
    const twice = trace({ deliveries: [first, dup], requests: [readSku('SKU-1', 1100), readSku('SKU-1', 2100)] });
    const j = judge('client.receiver-dedup', twice);
    expect(j.outcome).toBe('fail');
    expect(j.evidence[0]?.message).toMatch(/processed twice/);
    const refused = delivery({ eventId: 'e1', kind: 'duplicate', sentAt: 2000, answer: { status: 409, at: 2010 } });
    expect(judge('client.receiver-dedup', trace({ deliveries: [first, refused] })).outcome).toBe('fail');
    expectSkip('client.receiver-dedup', trace({ deliveries: [first] }));
  });
  describe('client.receiver-dedup when the read after the first delivery was refused with 429', () => {
    // The first delivery at 1000; its read at 1100 refused (delay 1 s, due 2101); the duplicate at 2020.
    const first = () => delivery({ eventId: 'e1', sentAt: 1000, answer: { status: 204, at: 1010 } });
    const dup = () => delivery({ eventId: 'e1', kind: 'duplicate', sentAt: 2020, answer: { status: 204, at: 2030 } });
    it('does not count the retry of the refused read, which lands after the duplicate', () => {
      const t = trace({
        deliveries: [first(), dup()],
        requests: [refusedSku('SKU-1', 1100), readSku('SKU-1', 2110)],
      });
      expect(judge('client.receiver-dedup', t).outcome).toBe('pass');
      expect(judge('client.retry-after-retries', t).outcome).toBe('pass');
    });
    it('counts a retry refused again as the same read too', () => {
      const t = trace({
        deliveries: [first(), dup()],
        requests: [refusedSku('SKU-1', 1100), refusedSku('SKU-1', 2110), readSku('SKU-1', 3120)],
      });
      expect(judge('client.receiver-dedup', t).outcome).toBe('pass');
    });
    it('still fails a receiver that reads again after the duplicate: one retry per refusal', () => {
      for (const processedAt of [2040, 2120]) {
        const t = trace({
          deliveries: [first(), dup()],
          requests: [refusedSku('SKU-1', 1100), readSku('SKU-1', 2110), readSku('SKU-1', processedAt)].sort(
            (a, b) => a.at - b.at,
          ),
        });
        const j = judge('client.receiver-dedup', t);
        expect(j.outcome, `read again at ${processedAt}`).toBe('fail');
        expect(j.evidence[0]?.actual).toBe('1 after the duplicate');
      }
    });
  });
});

describe('events checks', () => {
  it('client.reads-after-notification: a read of the named entity within the window passes, none fails', () => {
    const d = delivery({ sentAt: 1000 });
    expect(
      judge('client.reads-after-notification', trace({ deliveries: [d], requests: [readSku('SKU-1', 1500)] })).outcome,
    ).toBe('pass');
    const none = judge('client.reads-after-notification', trace({ deliveries: [d] }));
    expect(none.outcome).toBe('fail');
    expect(none.evidence[0]?.message).toMatch(/not read with listSkus within 5000 ms/);
    // An event no operation reads is left out.
    const order = delivery({ eventName: 'Production.Order.Finished', entity: { field: 'orderId', value: 'o1' } });
    expectSkip('client.reads-after-notification', trace({ deliveries: [order] }));
  });
  it('client.reads-after-notification: judges the first delivery of an event only, not a retry of it', () => {
    // Refused (500) after the receiver stored it and read the SKU; the mock's retry 5 s later is dropped as seen.
    const refused = delivery({ eventId: 'e1', sentAt: 1000, answer: { status: 500, at: 1010 } });
    const retried = delivery({ eventId: 'e1', sentAt: 6010, answer: { status: 204, at: 6020 } });
    const t = trace({ deliveries: [refused, retried], requests: [readSku('SKU-1', 1100)] });
    expect(judge('client.reads-after-notification', t).outcome).toBe('pass');
    expect(pendingOf(t, OPTIONS, 6100)).toEqual([]);
    // Accepted, read, then delivered again (a manual retry): the second delivery is not a new notification.
    const accepted = delivery({ eventId: 'e2', sentAt: 1000 });
    const again = delivery({ eventId: 'e2', sentAt: 20_000, answer: { status: 204, at: 20_010 } });
    const twice = trace({ deliveries: [accepted, again], requests: [readSku('SKU-1', 1100)] });
    expect(judge('client.reads-after-notification', twice).outcome).toBe('pass');
    // The raw-sensitive delivery is a new event (an id of its own): judged.
    const raw = delivery({ eventId: 'e3', kind: 'raw-sensitive', sentAt: 30_000 });
    const unread = trace({ deliveries: [accepted, raw], requests: [readSku('SKU-1', 1100)] });
    expect(judge('client.reads-after-notification', unread).outcome).toBe('fail');
  });
  it('client.event-names-from-versions: a subscription before any read of the events endpoints fails', () => {
    expect(
      judge('client.event-names-from-versions', trace({ subscriptions: [subscription()], eventReads: [1] })).outcome,
    ).toBe('pass');
    expect(
      judge('client.event-names-from-versions', trace({ subscriptions: [subscription()], eventReads: [9] })).outcome,
    ).toBe('fail');
    expectSkip('client.event-names-from-versions', trace());
  });
  it('client.subscribes-offered-versions: a name or version not offered fails', () => {
    expect(judge('client.subscribes-offered-versions', trace({ subscriptions: [subscription()] })).outcome).toBe(
      'pass',
    );
    const unknown = subscription({ eventName: 'Items.Sku.Made', status: 400, offered: false });
    expect(judge('client.subscribes-offered-versions', trace({ subscriptions: [unknown] })).outcome).toBe('fail');
    expectSkip('client.subscribes-offered-versions', trace());
  });
});
