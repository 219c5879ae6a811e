/**
 * Behind a tunnel (`--webhook-public-url`) without `--webhook-port`, the receiver's port is chosen when it starts: the
 * run tells where it listens and where deliveries are expected, so the tunnel can be pointed at it.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMock } from '../../index.js';
import type { ProgressEvent } from '../context.js';
import { runConformance } from '../orchestration/runner.js';

let mock: RunningMock;
/** A stand-in for the tunnel: forwards every request to the port it is pointed at (none until then: 502). */
let tunnel: Server;
let pointedAt: number | undefined;

beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
  tunnel = createServer((req, res) => {
    if (pointedAt === undefined) return void res.writeHead(502).end();
    const forward = request(
      { host: '127.0.0.1', port: pointedAt, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => tunnel.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await mock?.close();
  tunnel?.closeAllConnections();
  await new Promise((resolve) => tunnel?.close(resolve));
});

describe('the webhook receiver behind a public URL', () => {
  it('announces the port it listens on, and a tunnel pointed at it then carries the deliveries', async () => {
    const events: ProgressEvent[] = [];
    const publicUrl = `http://127.0.0.1:${(tunnel.address() as AddressInfo).port}/`;
    const report = await runConformance({
      baseUrl: mock.url,
      webhooks: true,
      webhookPublicUrl: publicUrl,
      only: ['webhooks.delivery'],
      onProgress: (e) => {
        events.push(e);
        if (e.kind === 'receiver') pointedAt = Number(new URL(e.listening).port);
      },
    });
    const announced = events.filter((e) => e.kind === 'receiver');
    expect(announced).toHaveLength(1);
    const [first] = announced;
    if (first?.kind !== 'receiver') return;
    expect(first.listening).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.listening).not.toMatch(/:0$/);
    expect(first.deliveriesAt.startsWith(`${publicUrl}conform-hooks/`)).toBe(true);
    // Announced before any check runs: the tunnel has the whole run to be pointed at it.
    expect(events[0]?.kind).toBe('receiver');
    expect(report.checks.find((c) => c.id === 'webhooks.delivery')?.outcome).toBe('pass');
  });
});
