import { setTimeout as sleep } from 'node:timers/promises';
/**
 * `npm run soak -- --seconds N`: starts the mock as a child process and runs mixed traffic against it for N seconds
 * with bounded concurrency (reads, writes, bad requests, webhook triggers and deliveries to a local receiver that
 * verifies every signature), then prints a summary: requests per kind, unexpected statuses, 5xx, the mock's RSS
 * after warm-up and at the end, the latency of health probes sent every 100 ms, and webhook deliveries.
 * Exit code 1 on any unexpected status, 5xx or signature failure; `--out FILE` also writes the result as JSON.
 */
import { writeFileSync } from 'node:fs';
import { Client } from 'undici';
import { parseSoakArgs, USAGE, type SoakArgs } from './soak/args.js';
import { startMockProcess } from './soak/mock-process.js';
import { startReceiver } from './soak/receiver.js';
import { round, summarise, textSummary, type SoakResult } from './soak/report.js';
import { percentile } from './soak/stats.js';
import { REQUEST_TIMEOUT_MS, runWorkers, setUpTenant, Traffic } from './soak/traffic.js';

const log = (message: string) => process.stderr.write(`soak: ${message}\n`);

let args: SoakArgs;
try {
  const parsed = parseSoakArgs(process.argv.slice(2));
  if (parsed === 'help') {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  args = parsed;
} catch (error) {
  process.stderr.write(`soak: ${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}

const warmUpSeconds = Math.min(3, Math.max(1, Math.round(args.seconds / 10)));
log(
  `starting the mock (${args.seconds} s run, ${warmUpSeconds} s warm-up, ${args.concurrency} workers, ${args.tenants} tenants)`,
);
const mock = await startMockProcess(args.cli);
// The mock never outlives the soak: stopped on Ctrl-C and SIGTERM too.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}, stopping the mock`);
    void mock.stop(2000).finally(() => process.exit(130));
  });
}
const receiver = await startReceiver();
const traffic = new Traffic(mock.url, args.concurrency + 2);

/** Probes `GET /__mock/health` every 100 ms on a connection of its own; latencies in ms. */
function startHealthProbes(): { stop: () => Promise<{ latencies: number[]; failures: number }> } {
  const client = new Client(mock.url, { headersTimeout: REQUEST_TIMEOUT_MS, bodyTimeout: REQUEST_TIMEOUT_MS });
  const latencies: number[] = [];
  let failures = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const res = await client.request({
          path: '/__mock/health',
          method: 'GET',
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        await res.body.text();
        if (res.statusCode === 200) latencies.push(performance.now() - started);
        else failures++;
      } catch {
        failures++;
      }
      const elapsed = performance.now() - started;
      if (running) await sleep(Math.max(0, 100 - elapsed));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      await client.close();
      return { latencies, failures };
    },
  };
}

let exitCode = 1;
try {
  const tenants = [];
  for (let i = 0; i < args.tenants; i++)
    tenants.push(await setUpTenant(traffic, receiver, `soak-${process.pid}-${i + 1}`));

  log('warming up');
  const warmUpEnd = Date.now() + warmUpSeconds * 1000;
  await runWorkers(traffic, tenants, args.concurrency, () => Date.now() >= warmUpEnd);
  const heapStart = await liveHeap(mock.url);
  const rssStart = mock.rss();
  let rssPeak = rssStart;
  const rssSampler = setInterval(() => {
    const rss = mock.rss();
    if (rss !== null && (rssPeak === null || rss > rssPeak)) rssPeak = rss;
  }, 1000);

  log('running');
  const probes = startHealthProbes();
  const started = performance.now();
  const runEnd = Date.now() + args.seconds * 1000;
  const before = [...traffic.tallies.values()].reduce((s, t) => s + t.requests, 0);
  await runWorkers(traffic, tenants, args.concurrency, () => Date.now() >= runEnd || mock.exited() !== null);
  const elapsedS = (performance.now() - started) / 1000;
  const measured = [...traffic.tallies.values()].reduce((s, t) => s + t.requests, 0) - before;
  const health = await probes.stop();

  // Let the deliveries under way arrive (bounded): stop when the count holds still for half a second.
  for (let last = -1, i = 0; i < 20 && receiver.received !== last; i++) {
    last = receiver.received;
    await sleep(500);
  }
  clearInterval(rssSampler);
  const heapEnd = await liveHeap(mock.url);
  const stats = await mockStats(mock.url);
  const rssEnd = mock.rss();
  if (rssEnd !== null && (rssPeak === null || rssEnd > rssPeak)) rssPeak = rssEnd;
  const crashed = mock.exited() !== null;
  const mockExit = await mock.stop();

  const requests = summarise(traffic.tallies, traffic.groups);
  requests.perSecond = round(measured / elapsedS);
  const sorted = health.latencies;
  const result: SoakResult = {
    settings: { seconds: args.seconds, warmUpSeconds, concurrency: args.concurrency, tenants: args.tenants },
    mock: { pid: mock.pid, url: mock.url, exitCode: mockExit, crashed },
    requests,
    healthProbe: {
      probes: sorted.length + health.failures,
      failures: health.failures,
      p50Ms: round(percentile(sorted, 50)),
      p99Ms: round(percentile(sorted, 99)),
      maxMs: round(Math.max(0, ...sorted)),
    },
    rssBytes: { start: rssStart, end: rssEnd, peak: rssPeak },
    liveHeapBytes: { start: heapStart, end: heapEnd },
    stored: { tenants: stats?.tenants ?? null, notifications: stats?.notifications ?? null },
    webhooks: { received: receiver.received, signatureFailures: receiver.signatureFailures },
    passed: requests.unexpected === 0 && requests.serverErrors === 0 && receiver.signatureFailures === 0 && !crashed,
  };
  process.stdout.write(textSummary(result));
  if (crashed) process.stderr.write(`soak: the mock exited during the run:\n${mock.output().slice(-4000)}\n`);
  if (args.out) {
    writeFileSync(args.out, `${JSON.stringify(result, null, 2)}\n`);
    log(`wrote ${args.out}`);
  }
  exitCode = result.passed ? 0 : 1;
} catch (error) {
  process.stderr.write(`soak: ${(error as Error).stack ?? String(error)}\n${mock.output().slice(-4000)}\n`);
  exitCode = 1;
} finally {
  await traffic.close().catch(() => undefined);
  await receiver.close();
  await mock.stop();
}
process.exit(exitCode);

/** The mock's figures from `GET /__mock/stats` (null when unavailable). */
async function mockStats(
  url: string,
  gc = false,
): Promise<{ tenants: number; notifications: number; memory: { heapUsed: number } } | null> {
  try {
    const res = await fetch(`${url}/__mock/stats${gc ? '?gc=1' : ''}`);
    return res.ok
      ? ((await res.json()) as { tenants: number; notifications: number; memory: { heapUsed: number } })
      : null;
  } catch {
    return null;
  }
}

/** The mock's live heap: heap used right after a full collection (the mock runs with --expose-gc). */
async function liveHeap(url: string): Promise<number | null> {
  return (await mockStats(url, true))?.memory.heapUsed ?? null;
}
