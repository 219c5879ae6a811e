import { createServer, type Server } from 'node:http';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, verifySignature } from '../../common/signature.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuSeconds } from '../children.js';
import { expectStatus } from '../http.js';
import { adminToken } from '../requests.js';
import { median, round, summarise } from '../stats.js';
import type { ScenarioDef } from './types.js';
import { listenOnLoopback } from '../loopback.js';

const EVENT_NAME = 'Warehouse.Shipment.Shipped';
const EVENT_VERSION = 1;

interface Delivery {
  eventId: string;
  notificationId: string;
  at: number;
}

interface Inbox {
  secret: string;
  deliveries: Delivery[];
  signatureFailures: number;
}

/** A receiver in this process: verifies every signature on the raw body with the tenant's secret, answers 200. */
export class Receiver {
  private readonly inboxes = new Map<string, Inbox>();
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = performance.now();
        const box = this.inboxes.get((req.url ?? '').split('/')[2] ?? '');
        if (box) {
          const raw = Buffer.concat(chunks);
          if (!verifySignature(raw, req.headers[SIGNATURE_HEADER.toLowerCase()], box.secret)) box.signatureFailures++;
          const eventId = req.headers[EVENT_ID_HEADER.toLowerCase()];
          const notificationId = req.headers['x-notification-id'];
          box.deliveries.push({
            eventId: typeof eventId === 'string' ? eventId : '',
            notificationId: typeof notificationId === 'string' ? notificationId : '',
            at,
          });
        }
        res.writeHead(box ? 200 : 404, { 'content-type': 'text/plain' });
        res.end(box ? 'ok' : 'unknown inbox');
      });
    });
    server.keepAliveTimeout = 30_000;
    this.url = await listenOnLoopback(server);
    this.server = server;
  }

  open(key: string, secret: string): Inbox {
    const box: Inbox = { secret, deliveries: [], signatureFailures: 0 };
    this.inboxes.set(key, box);
    return box;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export interface RoundResult {
  subscriptions: number;
  events: number;
  expected: number;
  delivered: number;
  duplicates: number;
  signatureFailures: number;
  triggerFailures: number;
  deliveriesPerSec: number | null;
  wallMs: number;
  latencyP50Ms: number | null;
  latencyP99Ms: number | null;
  latencyMaxMs: number | null;
  /** Events triggered one at a time (each waiting for its deliveries): latency without queueing. */
  pacedEvents: number;
  pacedLatencyP50Ms: number | null;
  pacedLatencyP99Ms: number | null;
  /** CPU use during the burst, % of one core: the mock, and this process (triggers and receiver). */
  oursCpuPct: number | null;
  benchCpuPct: number | null;
}

export async function oneRound(
  baseUrl: string,
  oursPid: number,
  receiver: Receiver,
  key: string,
  subscriptions: number,
  events: number,
  concurrency: number,
  timeoutS: number,
  pacedEvents: number,
): Promise<RoundResult> {
  const org = key;
  const token = await adminToken(org);
  const { secret } = (await expectStatus(200, 'GET', `${baseUrl}/__mock/webhook-secret`, { token })).json<{
    secret: string;
  }>();
  const box = receiver.open(key, secret);
  for (let i = 0; i < subscriptions; i++) {
    await expectStatus(201, 'POST', `${baseUrl}/v1/notifications/webhook/subscriptions`, {
      token,
      body: { endpoint: `${receiver.url}/hook/${key}/${i}`, eventName: EVENT_NAME, eventVersion: EVENT_VERSION },
    });
  }
  const sentAt = new Map<string, number>();
  let expected = 0;
  let triggerFailures = 0;
  let next = 0;
  const firstTrigger = performance.now();
  const oursCpu0 = cpuSeconds(oursPid);
  const benchCpu0 = process.cpuUsage();
  const worker = async () => {
    while (next < events) {
      next++;
      const t = performance.now();
      try {
        const answer = await expectStatus(202, 'POST', `${baseUrl}/__mock/events`, {
          token,
          body: { eventName: EVENT_NAME },
          timeoutMs: 10_000,
        });
        const emission = answer.json<{ eventId: string; notifications: string[] }>();
        sentAt.set(emission.eventId, t);
        expected += emission.notifications.length;
      } catch {
        triggerFailures++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, events)) }, worker));
  const deadline = performance.now() + timeoutS * 1000;
  while (box.deliveries.length < expected && performance.now() < deadline) await sleep(5);
  const delivered = box.deliveries.length;
  const burstS = (performance.now() - firstTrigger) / 1000;
  const oursCpu1 = cpuSeconds(oursPid);
  const benchCpu = process.cpuUsage(benchCpu0);
  const oursCpuPct = oursCpu0 !== null && oursCpu1 !== null ? round((100 * (oursCpu1 - oursCpu0)) / burstS, 0) : null;
  const benchCpuPct = round((100 * (benchCpu.user + benchCpu.system)) / 1e6 / burstS, 0);
  const lastDelivery = box.deliveries.reduce((m, d) => Math.max(m, d.at), firstTrigger);
  const latencies: number[] = [];
  for (const d of box.deliveries) {
    const t = sentAt.get(d.eventId);
    if (t !== undefined) latencies.push(d.at - t);
  }
  const s = summarise(latencies);
  const unique = new Set(box.deliveries.map((d) => d.notificationId)).size;
  const wallMs = lastDelivery - firstTrigger;

  // Paced: one event at a time, the next once every delivery of the previous one arrived (bounded per event).
  const paced: number[] = [];
  for (let k = 0; k < pacedEvents && delivered >= expected; k++) {
    const before = box.deliveries.length;
    const t = performance.now();
    const answer = await expectStatus(202, 'POST', `${baseUrl}/__mock/events`, {
      token,
      body: { eventName: EVENT_NAME },
      timeoutMs: 10_000,
    });
    const emission = answer.json<{ eventId: string; notifications: string[] }>();
    const until = performance.now() + 5000;
    while (box.deliveries.length < before + emission.notifications.length && performance.now() < until) await sleep(1);
    for (const d of box.deliveries.slice(before)) if (d.eventId === emission.eventId) paced.push(d.at - t);
  }
  const p = summarise(paced);
  return {
    subscriptions,
    events,
    expected,
    delivered,
    duplicates: delivered - unique,
    signatureFailures: box.signatureFailures,
    triggerFailures,
    deliveriesPerSec: delivered > 0 && wallMs > 0 ? round(delivered / (wallMs / 1000), 1) : null,
    wallMs: round(wallMs, 1) ?? 0,
    latencyP50Ms: round(s.p50, 3),
    latencyP99Ms: round(s.p99, 3),
    latencyMaxMs: round(s.max, 3),
    pacedEvents: paced.length === 0 ? 0 : pacedEvents,
    pacedLatencyP50Ms: round(p.p50, 3),
    pacedLatencyP99Ms: round(p.p99, 3),
    oursCpuPct,
    benchCpuPct,
  };
}

export const webhooksScenario: ScenarioDef = {
  name: 'webhooks',
  description: `N subscriptions on a local verifying receiver, M events via POST /__mock/events (${EVENT_NAME}); end-to-end deliveries/s and event-to-delivery latency`,
  async run(ctx) {
    const ours = await ctx.pool.get('ours');
    const w = ctx.settings.webhooks;
    const receiver = new Receiver();
    await receiver.start();
    const run = `${process.pid.toString(36)}${Date.now().toString(36)}`;
    try {
      if (w.warmupEvents > 0)
        await oneRound(
          ours.url,
          ours.child.pid,
          receiver,
          `bench-wh-${run}-warm`,
          w.subscriptions,
          w.warmupEvents,
          w.triggerConcurrency,
          w.deliveryTimeoutS,
          0,
        );
      const rounds: RoundResult[] = [];
      for (let r = 0; r < w.rounds; r++) {
        const result = await oneRound(
          ours.url,
          ours.child.pid,
          receiver,
          `bench-wh-${run}-${r}`,
          w.subscriptions,
          w.events,
          w.triggerConcurrency,
          w.deliveryTimeoutS,
          w.pacedEvents,
        );
        ctx.log(
          `    round ${r + 1}/${w.rounds} ${result.delivered}/${result.expected} delivered  ${result.deliveriesPerSec ?? '-'} deliveries/s  p50 ${result.latencyP50Ms ?? '-'} ms  p99 ${result.latencyP99Ms ?? '-'} ms  signature failures ${result.signatureFailures}; paced p50 ${result.pacedLatencyP50Ms ?? '-'} ms  p99 ${result.pacedLatencyP99Ms ?? '-'} ms; CPU mock ${result.oursCpuPct ?? '-'}% bench ${result.benchCpuPct ?? '-'}%`,
        );
        rounds.push(result);
      }
      const med = (pick: (r: RoundResult) => number | null) =>
        round(median(rounds.map(pick).filter((v): v is number => v !== null)), 3);
      const sum = (pick: (r: RoundResult) => number) => rounds.reduce((s, r) => s + pick(r), 0);
      return {
        metrics: {
          subscriptions: w.subscriptions,
          eventsPerRound: w.events,
          deliveriesPerSec: med((r) => r.deliveriesPerSec),
          latencyP50Ms: med((r) => r.latencyP50Ms),
          latencyP99Ms: med((r) => r.latencyP99Ms),
          pacedLatencyP50Ms: med((r) => r.pacedLatencyP50Ms),
          pacedLatencyP99Ms: med((r) => r.pacedLatencyP99Ms),
          oursCpuPct: med((r) => r.oursCpuPct),
          benchCpuPct: med((r) => r.benchCpuPct),
          delivered: sum((r) => r.delivered),
          expected: sum((r) => r.expected),
          missing: sum((r) => Math.max(0, r.expected - r.delivered)),
          duplicates: sum((r) => r.duplicates),
          signatureFailures: sum((r) => r.signatureFailures),
          triggerFailures: sum((r) => r.triggerFailures),
        },
        details: { rounds, triggerConcurrency: w.triggerConcurrency },
        notes: [
          'Rate: deliveries / (last delivery received - first trigger sent). Latency: trigger sent -> delivery received, per delivery, matched by X-Event-Id.',
          `Burst latency includes queueing behind the burst (${w.triggerConcurrency} triggers in flight, ${w.subscriptions} deliveries each); paced latency: ${w.pacedEvents} events one at a time after the burst.`,
        ],
      };
    } finally {
      await receiver.stop();
    }
  },
};
