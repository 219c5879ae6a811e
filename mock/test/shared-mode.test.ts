import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_JWT_SECRET } from '../options.js';
import { startMock } from '../server.js';
import { SharedModeError, sharedModeRefusal } from '../shared-mode.js';

const SECRET = 'a-jwt-secret-of-the-shared-mock-0123456789';
const KEY = 'an-admin-key-0123456789';

/** Whether a mock with the embedded defaults may start on `host`: only on a loopback address or name. */
const isLoopbackHost = (host: string) =>
  sharedModeRefusal({ host, jwtSecret: DEFAULT_JWT_SECRET, admin: true, adminKey: null }) === null;

describe('a loopback host', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', 'localhost', 'LOCALHOST'])(
    'is %s',
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
    },
  );

  it.each(['0.0.0.0', '::', '10.0.0.7', '192.168.1.2', '::ffff:10.0.0.1', 'mock.internal', '128.0.0.1', '::2'])(
    'is not %s',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );
});

describe('the shared-mode rules of a mock', () => {
  const on = (host: string, extra: Partial<Parameters<typeof sharedModeRefusal>[0]> = {}) =>
    sharedModeRefusal({ host, jwtSecret: DEFAULT_JWT_SECRET, admin: true, adminKey: null, ...extra });

  it('let a loopback mock start with the embedded defaults (npm start)', () => {
    expect(on('127.0.0.1')).toBeNull();
    expect(on('localhost')).toBeNull();
  });

  it('refuse a non-loopback host with the default JWT secret, even with the admin API off', () => {
    expect(on('0.0.0.0')).toMatch(/^refusing --host 0\.0\.0\.0 with the default --jwt-secret: .*forge tokens/);
    expect(on('0.0.0.0', { admin: false })).toMatch(/default --jwt-secret/);
    expect(on('0.0.0.0', { adminKey: KEY })).toMatch(/default --jwt-secret/);
  });

  it('refuse a non-loopback host with an admin API but no key', () => {
    expect(on('10.0.0.7', { jwtSecret: SECRET })).toMatch(
      /^refusing --host 10\.0\.0\.7 without --admin-key: .*reset every tenant.*--no-admin/,
    );
  });

  it('let a non-loopback host start with its own secret and a key, or its own secret and no admin API', () => {
    expect(on('0.0.0.0', { jwtSecret: SECRET, adminKey: KEY })).toBeNull();
    expect(on('0.0.0.0', { jwtSecret: SECRET, admin: false })).toBeNull();
  });

  it('refuse a key shorter than 16 characters on any host, without ever naming it', () => {
    const refusal = on('127.0.0.1', { adminKey: 'fifteen-chars-x' });
    expect(refusal).toMatch(/^--admin-key is 15 characters; use at least 16/);
    expect(refusal).not.toContain('fifteen-chars-x');
    expect(on('127.0.0.1', { adminKey: 'sixteen-chars-xx' })).toBeNull();
  });
});

describe('startMock on a non-loopback host', () => {
  let held: Server;
  let heldPort = 0;

  beforeAll(async () => {
    held = createServer();
    await new Promise<void>((resolve) => held.listen(0, '0.0.0.0', resolve));
    heldPort = (held.address() as { port: number }).port;
  });

  afterAll(() => new Promise<void>((resolve) => held.close(() => resolve())));

  it('throws a SharedModeError before binding (the held port would have failed with EADDRINUSE)', async () => {
    const started = startMock({ host: '0.0.0.0', port: heldPort });
    await expect(started).rejects.toThrow(SharedModeError);
    await expect(started).rejects.toThrow(/default --jwt-secret/);
  });
});
