import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

const EVIL = 'http://evil.example';

/** Sends one request with the request target exactly as given (no client normalises it) and returns its status. */
function statusOf(port: number, target: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      if (status) {
        socket.destroy();
        resolve(status);
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    socket.on('close', () => resolve('closed without an answer'));
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${lines.join('')}\r\n`);
  });
}

/**
 * The site guard on the wire: request targets the router maps under /__mock however they are written (RFC 9112 3.2:
 * the origin form, percent-encoded, the absolute form) are refused to a page of another site; /v1 stays open.
 */
describe('the admin API of a loopback mock, whatever form its request target takes', () => {
  let h: Harness;
  let port: number;

  beforeAll(async () => {
    h = await startHarness({});
    port = Number(new URL(h.url).port);
  });

  afterAll(async () => {
    await h?.close();
  });

  it('refuses the origin, percent-encoded and absolute forms of an admin path to another origin', async () => {
    const targets = ['/__mock/clock', '/%5F%5Fmock/clock', '/__m%6Fck/clock', `http://127.0.0.1:${port}/__mock/clock`];
    const statuses = await Promise.all(
      targets.map((target) => statusOf(port, target, { origin: EVIL, authorization: `Bearer ${h.admin}` })),
    );
    expect(Object.fromEntries(targets.map((t, i) => [t, statuses[i]]))).toEqual(
      Object.fromEntries(targets.map((t) => [t, '403'])),
    );
  });

  it('answers the same absolute form to a client that is no browser, and /v1 to every origin', async () => {
    const auth = { authorization: `Bearer ${h.admin}` };
    expect(await statusOf(port, `http://127.0.0.1:${port}/__mock/clock`, auth)).toBe('200');
    expect(await statusOf(port, '/v1/items/skus?pageSize=1', { ...auth, origin: EVIL })).toBe('200');
  });
});
