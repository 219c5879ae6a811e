import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { decisionFile } from '../../spec/decisions/test/decision-file.js';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type StartMockOptions } from 'opsapi/testing';

/** A port this file holds: a mock that tried to bind it would fail with EADDRINUSE, not with the option's error. */
let held: Server;
let heldPort = 0;

beforeAll(async () => {
  held = createServer();
  await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
  heldPort = (held.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => held.close(() => resolve())));

/** Each kind of bad option, the error class it throws and what the message says. */
const BAD: [kind: string, options: unknown, error: typeof TypeError | typeof RangeError, message: RegExp][] = [
  ['an unknown name', { colour: 1 }, TypeError, /^startMock: unknown option colour; known: port, host, seed, /],
  [
    'a misspelt name',
    { rateLimt: 'off' },
    TypeError,
    /^startMock: unknown option rateLimt; did you mean rateLimit\? known: /,
  ],
  ['the CLI flag name of a renamed option', { fault: ['x'] }, TypeError, /unknown option fault; did you mean faults\?/],
  [
    'a port of the wrong type',
    { port: '4010' },
    TypeError,
    /option port must be an integer from 0 to 65535, got '4010'/,
  ],
  ['a port out of range', { port: 70_000 }, RangeError, /option port must be an integer from 0 to 65535, got 70000/],
  ['a bad rateLimit', { rateLimit: '5/x' }, RangeError, /option rateLimit: invalid rate limit "5\/x": use N\/window/],
  ['a rateLimit that is not a string', { rateLimit: null }, TypeError, /option rateLimit must be a rate N\/window/],
  [
    'an unknown fault',
    { faults: ['contains-as-equals', 'x'] },
    RangeError,
    /option faults\[1\] 'x' is not a planted fault; known: .*contains-as-equals/,
  ],
  ['faults that are not an array', { faults: 'contains-as-equals' }, TypeError, /option faults must be an array/],
  ['a bad latency', { latency: 'fast' }, RangeError, /option latency: invalid latency "fast": use e.g. 50-200ms/],
  [
    'a bad retrySchedule',
    { retrySchedule: '0,soon' },
    RangeError,
    /option retrySchedule: invalid retry schedule entry "soon"/,
  ],
  [
    'a negative retry delay',
    { retrySchedule: [0, -5] },
    RangeError,
    /option retrySchedule\[1\] must be a delay in seconds >= 0/,
  ],
  [
    'a deliveryTimeout of 0',
    { deliveryTimeout: 0 },
    RangeError,
    /option deliveryTimeout must be an integer from 1 to 600000 \(ms\)/,
  ],
  ['an admin that is not a boolean', { admin: 'no' }, TypeError, /option admin must be a boolean/],
  ['an empty jwtSecret', { jwtSecret: '' }, RangeError, /option jwtSecret must be a non-empty string/],
  [
    'a state file in a missing folder',
    { state: join(tmpdir(), 'no-such-dir', 's.json') },
    RangeError,
    /option state .*does not exist/,
  ],
  ['a cacheMb of 0', { cacheMb: 0 }, RangeError, /option cacheMb must be an integer from 1 to 1048576 \(MB\)/],
  ['a redis that is no Redis URL', { redis: 'localhost:6379' }, RangeError, /option redis must be a Redis URL/],
  ['options that are not an object', 'port=0', TypeError, /^startMock: expected an object of options, got 'port=0'/],
];

describe('startMock options', () => {
  it.each(BAD)('refuses %s before listening, naming the option', async (_kind, options, error, message) => {
    // The held port would make a bind fail: the option's own error shows nothing was bound first.
    const withPort = typeof options === 'object' && options !== null ? { port: heldPort, ...options } : options;
    const started = startMock(withPort as StartMockOptions);
    await expect(started).rejects.toThrow(error);
    await expect(started).rejects.toThrow(message);
  });

  it('treats an option left undefined as not given', async () => {
    const mock = await startMock({ port: undefined, rateLimit: undefined });
    try {
      expect(mock.control.options.rateLimit).toEqual({ limit: 300, windowMs: 1000 });
    } finally {
      await mock.close();
    }
  });

  it('reads rateLimit, latency and retrySchedule with the parsers of the CLI flags, so they mean what the flags mean', async () => {
    const mock = await startMock({ rateLimit: '2/1h', latency: '1-2ms', retrySchedule: '0,5s,1m', faults: [] });
    try {
      expect(mock.control.options.rateLimit).toEqual({ limit: 2, windowMs: 3_600_000 });
      expect(mock.control.options.latency).toEqual({ min: 1, max: 2 });
      expect(mock.control.options.retrySchedule).toEqual([0, 5, 60]);
      // Two requests per hour: the third is refused whatever the time between them.
      const token = await mock.tenant().token();
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${mock.url}/v1/items/skus?pageSize=1`, {
          headers: { authorization: `Bearer ${token}` },
        });
        await res.arrayBuffer();
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await mock.close();
    }
  });

  it('bounds the list caches with cacheMb, as --cache-mb does', async () => {
    const mock = await startMock({ cacheMb: 3 });
    try {
      const res = await fetch(`${mock.url}/__mock/stats`);
      const stats = (await res.json()) as { listCaches: { limitBytes: number } };
      expect(stats.listCaches.limitBytes).toBe(3 * 1024 * 1024);
    } finally {
      await mock.close();
    }
  });

  it("plants the faults named, and only those: 'contains-as-equals' still answers lists", async () => {
    const mock = await startMock({ faults: ['contains-as-equals'], rateLimit: 'off' });
    try {
      expect([...mock.control.options.faults]).toEqual(['contains-as-equals']);
      expect(mock.control.options.rateLimit).toBeNull();
      const token = await mock.tenant().token();
      const res = await fetch(`${mock.url}/v1/items/skus?pageSize=1`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await res.arrayBuffer();
      expect(res.status).toBe(200);
    } finally {
      await mock.close();
    }
  });

  it('adopts a decision file (opsapi learn --out) and guards its admin API with adminKey, as the CLI flags do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opsapi-options-'));
    const file = join(dir, 'decisions.json');
    writeFileSync(file, JSON.stringify(decisionFile({ 'success-status:listSkus': 203 })));
    const mock = await startMock({ decisions: file, adminKey: 'a-key-of-sixteen-chars', rateLimit: 'off' });
    try {
      expect(mock.control.options.decisions?.decisions.map((d) => d.id)).toEqual(['success-status:listSkus']);
      const token = await mock.tenant().token();
      const list = await fetch(`${mock.url}/v1/items/skus?pageSize=1`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await list.arrayBuffer();
      expect(list.status).toBe(203);
      const stats = await fetch(`${mock.url}/__mock/stats`);
      await stats.arrayBuffer();
      expect(stats.status).toBe(401);
    } finally {
      await mock.close();
      rmSync(dir, { recursive: true, force: true });
    }
    await expect(startMock({ decisions: join(dir, 'none.json') })).rejects.toThrow(
      /^startMock: option decisions: --decisions .*none\.json: cannot read it/,
    );
  });

  it('listens on a free loopback port by default, and names the port when the one asked for is taken', async () => {
    const mock = await startMock();
    try {
      expect(mock.url).toBe(`http://127.0.0.1:${mock.port}`);
      expect(mock.port).toBeGreaterThan(0);
    } finally {
      await mock.close();
    }
    await expect(startMock({ port: heldPort })).rejects.toMatchObject({
      code: 'EADDRINUSE',
      message: expect.stringContaining(`option port ${heldPort} is already in use`),
    });
  });
});
