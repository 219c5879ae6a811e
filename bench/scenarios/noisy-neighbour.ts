import { setTimeout as sleep } from 'node:timers/promises';
import type { Child } from '../children.js';
import type { AttackerOrders, AttackerReport } from '../clients/noisy-attacker.js';
import { call, expectStatus } from '../http.js';
import { runPacedLoad } from '../load.js';
import { loopInterval, mockFigures } from '../mock-stats.js';
import { adminToken, listPlan } from '../requests.js';
import { round, summarise } from '../stats.js';
import { spawnBenchScript, startOurs } from '../targets/index.js';
import type { ScenarioDef } from './types.js';
import { Receiver } from './webhooks.js';
import { mintToken, adminClaims, DEFAULT_JWT_SECRET } from '../../index.js';
import { formatDuration } from '../../common/duration.js';
import { SHARED_HOST_DELIVERY_RATE } from '../../common/shared-host-delivery-rate.js';

/** The rate limit both tenants run under: the mock's default, written out so the attacker's pace matches it. */
const RATE_PER_S = 300;
/** `--delivery-rate-per-tenant` of a mock on a host others reach when not given (common/shared-host-delivery-rate.ts). */
const SHARED_HOST_PACE = `${SHARED_HOST_DELIVERY_RATE.limit}/${formatDuration(SHARED_HOST_DELIVERY_RATE.windowMs)}`;

/** Stock updates emit this event (mock/handlers/items.ts), fanned out to every subscription of the attacker. */
const STOCK_EVENT = 'Warehouse.Stock.Updated';

/** The victim's paced list load and its event probes: a client at a modest, steady pace. */
const VICTIM_LIST_RATE = 50;
const VICTIM_EVENT_EVERY_MS = 250;

interface Probes {
  latencies: number[];
  lost: number;
}

/**
 * The victim's event-to-delivery probes until `until`: an event every VICTIM_EVENT_EVERY_MS through
 * `POST /__mock/events`, each timed from the trigger to its arrival at the victim's healthy receiver.
 */
async function probeDeliveries(
  url: string,
  token: string,
  inbox: { deliveries: { eventId: string; at: number }[] },
  until: number,
): Promise<Probes> {
  const sent = new Map<string, number>();
  while (performance.now() < until) {
    const t = performance.now();
    const answer = await call('POST', `${url}/__mock/events`, {
      token,
      body: { eventName: STOCK_EVENT },
      timeoutMs: 10_000,
    });
    if (answer.status === 202) sent.set(answer.json<{ eventId: string }>().eventId, t);
    await sleep(VICTIM_EVENT_EVERY_MS);
  }
  // The last probes' deliveries, bounded: a delivery later than 15 s counts as lost.
  const deadline = performance.now() + 15_000;
  const arrived = () => inbox.deliveries.filter((d) => sent.has(d.eventId)).length;
  while (arrived() < sent.size && performance.now() < deadline) await sleep(10);
  const latencies = inbox.deliveries.flatMap((d) => {
    const t = sent.get(d.eventId);
    return t === undefined ? [] : [d.at - t];
  });
  return { latencies, lost: sent.size - latencies.length };
}

/** The victim's list load and delivery probes over `seconds`, side by side. */
async function victimPhase(url: string, token: string, inbox: Parameters<typeof probeDeliveries>[2], seconds: number) {
  const until = performance.now() + seconds * 1000;
  const [list, probes] = await Promise.all([
    runPacedLoad(url, listPlan(token), {
      connections: 2,
      ratePerS: VICTIM_LIST_RATE,
      durationS: seconds,
      maxRequests: Math.ceil(seconds * VICTIM_LIST_RATE),
    }),
    probeDeliveries(url, token, inbox, until),
  ]);
  return { list, probes };
}

/**
 * The attacker in a process of its own (bench/clients/noisy-attacker.ts): another tenant's client is not in the
 * victim's process, and the victim's latencies must not include the attacker's own work.
 */
function startAttacker(orders: AttackerOrders): Child {
  return spawnBenchScript('attacker', 'bench/clients/noisy-attacker.ts', [], {
    ...process.env,
    NOISY_ATTACKER_ORDERS: JSON.stringify(orders),
  });
}

/** The heap of the mock, polled every 500 ms until `stop` resolves: its highest value, MB. */
async function heapPeak(url: string, stop: Promise<unknown>): Promise<number | null> {
  let peak: number | null = null;
  let done = false;
  // Ends with `stop` whether it resolves or rejects (the attacker's report may not come); the caller awaits `stop` itself.
  const end = () => {
    done = true;
  };
  void stop.then(end, end);
  while (!done) {
    const figures = await mockFigures(url);
    if (figures) peak = Math.max(peak ?? 0, figures.heapUsedMb);
    await sleep(500);
  }
  return peak;
}

const ratio = (a: number | null | undefined, b: number | null | undefined) =>
  a != null && b != null && b > 0 ? round(a / b, 2) : null;

export const noisyNeighbourScenario: ScenarioDef = {
  name: 'noisy-neighbour',
  description: `one tenant (its client in a process of its own, at the lowest CPU priority) at its rate limit (${RATE_PER_S}/s) sends the worst it can (fan-out to silent receivers, a closed port and receivers that answer at once and close, 1 MB invalid bodies, expired tokens, 15 KB headers, never-repeated 250-term filters); another tenant's list p99 and event-to-delivery p50 against its quiet values, and the mock's heap`,
  async run(ctx) {
    const n = ctx.settings.noisy;
    // The mock listens on loopback (the load generators are on this machine) but paces deliveries as on a host others
    // reach, where a shared sandbox runs (mock/options/delivery-shares.ts).
    const ours = await startOurs({
      flags: ['--rate-limit', `${RATE_PER_S}/1s`, '--delivery-rate-per-tenant', SHARED_HOST_PACE],
      profileDir: ctx.profileDir,
    });
    const healthy = new Receiver();
    await healthy.start();
    let attackerProcess: Child | null = null;
    try {
      const run = `${process.pid.toString(36)}${Date.now().toString(36)}`;
      const victimOrg = `quiet-${run}`;
      const attackerOrg = `noisy-${run}`;
      const [victim, attacker] = await Promise.all([adminToken(victimOrg), adminToken(attackerOrg)]);
      const expired = await mintToken(DEFAULT_JWT_SECRET, adminClaims(attackerOrg), -3600);
      const { secret } = (await expectStatus(200, 'GET', `${ours.url}/__mock/webhook-secret`, { token: victim })).json<{
        secret: string;
      }>();
      const inbox = healthy.open(victimOrg, secret);
      await expectStatus(201, 'POST', `${ours.url}/v1/notifications/webhook/subscriptions`, {
        token: victim,
        body: { endpoint: `${healthy.url}/hook/${victimOrg}`, eventName: STOCK_EVENT, eventVersion: 1 },
      });

      // A warm-up (not measured): the first answers of a fresh process run cold code.
      await victimPhase(ours.url, victim, inbox, Math.min(2, n.quietS / 2));
      const beforeQuiet = await mockFigures(ours.url);
      const heapQuiet = beforeQuiet?.heapUsedMb ?? null;
      ctx.log(`    quiet: ${n.quietS} s of the victim alone`);
      const quiet = await victimPhase(ours.url, victim, inbox, n.quietS);
      const quietLoop = loopInterval(beforeQuiet?.loop, (await mockFigures(ours.url))?.loop);

      // The data manifest names a SKU and one of its locations (GET /__mock/fixtures), as the stock scenario reads it.
      const { sku } = (await expectStatus(200, 'GET', `${ours.url}/__mock/fixtures`, { token: attacker })).json<{
        sku: { reference: string; locationReference: string };
      }>();
      const orders: AttackerOrders = {
        url: ours.url,
        token: attacker,
        expiredToken: expired,
        sku: sku.reference,
        location: sku.locationReference,
        subscriptions: n.subscriptions,
        eventName: STOCK_EVENT,
        ratePerS: RATE_PER_S,
        seconds: n.loadS,
      };
      attackerProcess = startAttacker(orders);
      // Its subscriptions (to its three receivers) come first, until the mock refuses one (its bound); then its load
      // starts.
      const attacking = await attackerProcess.waitFor(/^attacking (.*)$/m, 180_000);
      const { subscriptions, refusal } = JSON.parse(attacking[1] ?? '{}') as Pick<
        AttackerReport,
        'subscriptions' | 'refusal'
      >;
      ctx.log(
        `    noisy: ${n.loadS} s, attacker with ${subscriptions} subscriptions to silent, closed and hasty receivers (then ${refusal ?? 'none refused'})`,
      );
      const result = attackerProcess.waitFor(/^result (.*)$/m, (n.loadS + 60) * 1000);
      const peak = heapPeak(ours.url, result);
      const beforeNoisy = await mockFigures(ours.url);
      const noisy = await victimPhase(ours.url, victim, inbox, n.loadS);
      const noisyLoop = loopInterval(beforeNoisy?.loop, (await mockFigures(ours.url))?.loop);
      const report = JSON.parse((await result)[1] ?? '{}') as AttackerReport;
      const heapPeakMb = await peak;
      const heapAfter = (await mockFigures(ours.url))?.heapUsedMb ?? null;
      const stats = (await call('GET', `${ours.url}/__mock/stats`)).json<Record<string, unknown>>();

      const q = summarise(quiet.probes.latencies);
      const z = summarise(noisy.probes.latencies);
      const metrics: Record<string, number | null> = {
        attackerSubscriptions: report.subscriptions,
        'victim.quietListP99Ms': round(quiet.list.p99Ms, 3),
        'victim.noisyListP99Ms': round(noisy.list.p99Ms, 3),
        'victim.listP99Ratio': ratio(noisy.list.p99Ms, quiet.list.p99Ms),
        'victim.listErrors': noisy.list.errors + noisy.list.unexpected,
        'victim.quietDeliveryP50Ms': round(q.p50, 3),
        'victim.noisyDeliveryP50Ms': round(z.p50, 3),
        'victim.deliveryP50Ratio': ratio(z.p50, q.p50),
        'victim.deliveriesLost': quiet.probes.lost + noisy.probes.lost,
        heapQuietMb: round(heapQuiet, 1),
        heapPeakMb: round(heapPeakMb, 1),
        heapAfterMb: round(heapAfter, 1),
        heapGrowthMb: heapPeakMb !== null && heapQuiet !== null ? round(heapPeakMb - heapQuiet, 1) : null,
        silentConnectionsAtEnd: report.silentConnectionsAtEnd,
        // Why the victim's tail moves: how busy the mock's one loop was, and how long its scavenges paused it.
        'mock.quietLoopBusy': round(quietLoop?.busyShare, 3),
        'mock.noisyLoopBusy': round(noisyLoop?.busyShare, 3),
        'mock.quietScavengesPerS': round(quietLoop?.scavengesPerS, 2),
        'mock.noisyScavengesPerS': round(noisyLoop?.scavengesPerS, 2),
        'mock.quietScavengeMeanMs': round(quietLoop?.scavengeMeanMs, 3),
        'mock.noisyScavengeMeanMs': round(noisyLoop?.scavengeMeanMs, 3),
        'mock.noisyMajorPauseMs': round(noisyLoop?.majorPauseMs, 1),
      };
      let sent = 0;
      for (const [kind, load] of Object.entries(report.runs)) {
        metrics[`attacker.${kind}.sent`] = load.responses;
        metrics[`attacker.${kind}.errors`] = load.errors + load.unexpected;
        sent += load.responses;
      }
      // What it sent of what its rate limit let it send over the attack: the attack at full strength reads 1.
      metrics['attacker.rateShare'] = round(sent / (RATE_PER_S * n.loadS), 3);
      ctx.log(
        `    victim list p99 ${metrics['victim.quietListP99Ms']} → ${metrics['victim.noisyListP99Ms']} ms (${metrics['victim.listP99Ratio']}x); delivery p50 ${metrics['victim.quietDeliveryP50Ms']} → ${metrics['victim.noisyDeliveryP50Ms']} ms (${metrics['victim.deliveryP50Ratio']}x); heap ${metrics.heapQuietMb} → peak ${metrics.heapPeakMb} MB; loop busy ${metrics['mock.quietLoopBusy']} → ${metrics['mock.noisyLoopBusy']}, scavenges ${metrics['mock.quietScavengesPerS']}/s of ${metrics['mock.quietScavengeMeanMs']} ms → ${metrics['mock.noisyScavengesPerS']}/s of ${metrics['mock.noisyScavengeMeanMs']} ms`,
      );
      return {
        metrics,
        notes: [],
        details: {
          attackerRefusedWith: report.refusal,
          attackerStatuses: Object.fromEntries(Object.entries(report.runs).map(([k, r]) => [k, r.statusCounts])),
          notifications: stats.notifications ?? null,
        },
      };
    } finally {
      await attackerProcess?.stop();
      await healthy.stop();
      await ours.stop();
    }
  },
};
