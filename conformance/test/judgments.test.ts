import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { contract } from '../contract/contract.js';
import type { Exchange } from '../wire/client.js';
import { Judgments } from '../judgments.js';
import type { ExchangeRule } from '../rules/index.js';

/** An exchange as the client records it (the fields a test does not name are those of a 200 list answer). */
function exchange(seq: number, over: Partial<Exchange> = {}): Exchange {
  return {
    seq,
    check: 'lists.defaults',
    method: 'GET',
    path: '/v1/items/skus',
    target: '/v1/items/skus',
    url: 'http://127.0.0.1/v1/items/skus',
    requestHeaders: {},
    status: 200,
    headers: { 'content-type': 'application/json' },
    text: '{}',
    json: { results: [{ warehouseZone: 'A' }] },
    durationMs: 1,
    operationId: 'listSkus',
    ...over,
  };
}

/** A rule that counts the exchanges it judged and finds one thing wrong with each. */
function countingRule(): ExchangeRule & { judged: number[] } {
  const judged: number[] = [];
  return {
    id: 'schema.responses-valid',
    title: 'counting',
    family: 'schema',
    clause: 'test',
    level: 'MUST',
    judged,
    applies: (ex) => ex.status === 200,
    judge: (ex) => {
      judged.push(ex.seq);
      return [{ message: `exchange ${ex.seq}` }];
    },
  };
}

const env = { basePath: '', validator: contract().validator };

/** Waits (at most 2 s, in 10 ms steps) until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await sleep(10);
}

describe('judgments of a run', () => {
  it('judge an exchange once per rule, however many checks ask', () => {
    const judgments = new Judgments(env);
    const rule = countingRule();
    const ex = exchange(1);
    expect(judgments.of(rule, ex)).toEqual([{ message: 'exchange 1' }]);
    expect(judgments.of(rule, ex)).toBe(judgments.of(rule, ex));
    expect(rule.judged).toEqual([1]);
  });

  it('find the members the contract does not name once per exchange', () => {
    const judgments = new Judgments(env);
    const ex = exchange(1);
    const paths = judgments.unknownFields(ex);
    expect(paths.some((p) => p.includes('warehouseZone'))).toBe(true);
    expect(judgments.unknownFields(ex)).toBe(paths);
    expect(judgments.unknownFields(exchange(2, { operationId: undefined }))).toEqual([]);
  });

  it('judge ahead only while the run has time to spare, each exchange recorded now or later, until stopped', async () => {
    const judgments = new Judgments(env);
    const rule = countingRule();
    const exchanges = [exchange(1), exchange(2, { status: 404 })];
    let spare = false;
    const stop = judgments.ahead([rule], exchanges, { unknownFields: true, spare: () => spare });
    await sleep(50);
    expect(rule.judged).toEqual([]);
    spare = true;
    exchanges.push(exchange(3));
    await until(() => rule.judged.length === 2);
    await stop();
    exchanges.push(exchange(4));
    await sleep(30);
    // The 404 is not one the rule applies to; exchange 4 came after the stop.
    expect(rule.judged).toEqual([1, 3]);
  });
});
