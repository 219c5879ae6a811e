import type { Goal, OkResult, Results, ScenarioResult } from './results.js';
import { TARGET_NAMES } from './targets/index.js';

type Row = string[];

/**
 * The stated bound of the mock's heap growth under one tenant's worst (noisy-neighbour): the per-tenant bounds at
 * their defaults (journal, notifications, subscriptions, list caches) plus what V8 keeps before it collects.
 */
const NOISY_HEAP_GROWTH_MB = 200;

function num(v: number | null | undefined, digits = 2): string {
  if (v === null || v === undefined) return '-';
  if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString('en-US');
  return Number.isInteger(v) ? String(v) : v.toFixed(digits);
}

const metricOf = (r: ScenarioResult | undefined, key: string): number | null =>
  r && r.status === 'ok' ? (r.metrics[key] ?? null) : null;

/** The kit's performance targets, set against the measured numbers (informational, never asserted). */
export function goals(scenarios: Record<string, ScenarioResult>): Goal[] {
  const s = scenarios;
  const out: Goal[] = [];
  const add = (goal: string, value: number | null, unit: string, ok: (v: number) => boolean) =>
    out.push({ goal, value, unit, met: value === null ? null : ok(value) });
  add('list: ours >= 15x Prism req/s', metricOf(s.list, 'oursVsPrism'), 'x', (v) => v >= 15);
  add('list: ours >= 60% of bare req/s', metricOf(s.list, 'oursVsBare'), 'x', (v) => v >= 0.6);
  add('list: ours p99 <= 5 ms', metricOf(s.list, 'ours.p99Ms'), 'ms', (v) => v <= 5);
  add('stock: ours p99 <= 5 ms', metricOf(s.stock, 'ours.p99Ms'), 'ms', (v) => v <= 5);
  add('unauthorized: ours p99 <= 5 ms', metricOf(s.unauthorized, 'ours.p99Ms'), 'ms', (v) => v <= 5);
  // In front of a deployment (10 connections, 1,000 requests/s, answers in 5 ms): what the proxy adds to each answer.
  add('proxy: added latency p50 <= 1 ms', metricOf(s.proxy, 'addedP50Ms'), 'ms', (v) => v <= 1);
  add('proxy: added latency p99 <= 5 ms', metricOf(s.proxy, 'addedP99Ms'), 'ms', (v) => v <= 5);
  add('list-10k: ours p50 <= 3 ms', metricOf(s['list-10k'], 'ours.p50Ms'), 'ms', (v) => v <= 3);
  add('list-100k: ours p50 <= 20 ms', metricOf(s['list-100k'], 'ours.p50Ms'), 'ms', (v) => v <= 20);
  add(
    'list-100k (uncached filters, informational): p50 <= 20 ms',
    metricOf(s['list-100k'], 'ours.coldP50Ms'),
    'ms',
    (v) => v <= 20,
  );
  const skus = metricOf(s['startup-and-memory'], 'skus');
  const label = skus === null ? '' : ` (${skus.toLocaleString('en-US')} SKUs)`;
  add(
    `startup: spawn + seeding + first answer <= 3 s${label}`,
    metricOf(s['startup-and-memory'], 'firstAnswerMs'),
    'ms',
    (v) => v <= 3000,
  );
  const rss = [
    metricOf(s['startup-and-memory'], 'rssAfterSeedMb'),
    metricOf(s['startup-and-memory'], 'rssAfterListMb'),
    metricOf(s['startup-and-memory'], 'rssAfterSecondListMb'),
  ].filter((v): v is number => v !== null);
  add(
    `startup: RSS after seeding <= 200 MB${label}`,
    metricOf(s['startup-and-memory'], 'rssAfterSeedMb'),
    'MB',
    (v) => v <= 200,
  );
  add(`startup: RSS <= 400 MB${label}`, rss.length ? Math.max(...rss) : null, 'MB', (v) => v <= 400);
  const tenants = metricOf(s['tenants-10k'], 'tenants');
  const tenantsLabel = tenants === null ? '' : ` (${tenants.toLocaleString('en-US')} tenants)`;
  const tenantsRss = [
    metricOf(s['tenants-10k'], 'rssAfterFirstReadsMb'),
    metricOf(s['tenants-10k'], 'rssAfterLoadMb'),
  ].filter((v): v is number => v !== null);
  add(
    `tenants-10k: RSS <= 1.5 GB${tenantsLabel}`,
    tenantsRss.length ? Math.max(...tenantsRss) : null,
    'MB',
    (v) => v <= 1536,
  );
  add(
    `tenants-10k: first answer p50 <= 5 ms${tenantsLabel}`,
    metricOf(s['tenants-10k'], 'firstAnswerP50Ms'),
    'ms',
    (v) => v <= 5,
  );
  const varied = s['list-100k-varied'];
  add('list-100k-varied: RSS growth <= 50 MB', metricOf(varied, 'rssGrowthMb'), 'MB', (v) => v <= 50);
  add('list-100k-varied: p50 <= 10 ms', metricOf(varied, 'ours.p50Ms'), 'ms', (v) => v <= 10);
  add('list-100k-varied: p99 <= 50 ms', metricOf(varied, 'ours.p99Ms'), 'ms', (v) => v <= 50);
  add('webhooks: >= 8,000 signed deliveries/s', metricOf(s.webhooks, 'deliveriesPerSec'), '/s', (v) => v >= 8000);
  add('webhooks: event-to-delivery p50 <= 5 ms', metricOf(s.webhooks, 'latencyP50Ms'), 'ms', (v) => v <= 5);
  add(
    'webhooks (paced, informational): event-to-delivery p50 <= 5 ms',
    metricOf(s.webhooks, 'pacedLatencyP50Ms'),
    'ms',
    (v) => v <= 5,
  );
  add('webhooks: 0 signature failures', metricOf(s.webhooks, 'signatureFailures'), '', (v) => v === 0);
  add('conform: full run <= 4 s', metricOf(s.conform, 'wallS'), 's', (v) => v <= 4);
  const remote = s['conform-remote'];
  add('conform-remote: certifying run at 50 ms latency <= 30 s', metricOf(remote, 'wallS'), 's', (v) => v <= 30);
  add('conform-remote: no MUST check skipped', metricOf(remote, 'mustSkipped'), '', (v) => v === 0);
  // One tenant at its rate limit sending the worst it can: what its neighbour feels, and what the mock holds.
  const noisy = s['noisy-neighbour'];
  add('noisy-neighbour: other tenant list p99 <= 2x quiet', metricOf(noisy, 'victim.listP99Ratio'), 'x', (v) => v <= 2);
  // The attacker runs at the lowest CPU priority (bench/clients/noisy-attacker.ts): its attack counts only at its rate.
  add(
    'noisy-neighbour: attacker sent >= 95% of its rate limit',
    metricOf(noisy, 'attacker.rateShare'),
    'x',
    (v) => v >= 0.95,
  );
  add(
    'noisy-neighbour: other tenant event-to-delivery p50 <= 2x quiet',
    metricOf(noisy, 'victim.deliveryP50Ratio'),
    'x',
    (v) => v <= 2,
  );
  add(
    `noisy-neighbour: heap growth <= ${NOISY_HEAP_GROWTH_MB} MB`,
    metricOf(noisy, 'heapGrowthMb'),
    'MB',
    (v) => v <= NOISY_HEAP_GROWTH_MB,
  );
  add('compaction: other tenant list p99 <= 2x quiet', metricOf(s.compaction, 'victim.p99Ratio'), 'x', (v) => v <= 2);
  // Against an older build (`--baseline-cli`): a change of structure keeps the speed, no figure 10% lower.
  for (const load of ['list', 'stock', 'webhooks'] as const)
    add(
      `baseline: ${load} at least 90% of the older build`,
      metricOf(s.baseline, `${load}.change`),
      '',
      (v) => v >= -0.1,
    );
  return out;
}

function isLoad(r: ScenarioResult): r is OkResult & { targets: NonNullable<OkResult['targets']> } {
  return r.status === 'ok' && r.targets !== undefined;
}

function loadRows(results: Results): Row[] {
  const rows: Row[] = [];
  for (const r of Object.values(results.scenarios)) {
    if (!isLoad(r)) continue;
    for (const name of TARGET_NAMES) {
      const t = r.targets[name];
      if (!t) continue;
      const ours = name === 'ours';
      rows.push([
        r.name,
        name,
        num(t.reqPerSec, 0),
        num(t.p50Ms, 2),
        num(t.p99Ms, 2),
        String(t.errors),
        String(t.unexpected),
        ours ? num(r.metrics.oursVsPrism ?? null, 2) : '',
        ours ? num(r.metrics.oursVsBare ?? null, 3) : '',
      ]);
    }
  }
  return rows;
}

const LOAD_HEAD = [
  'scenario',
  'target',
  'req/s',
  'p50 ms',
  'p99 ms',
  'errors',
  'unexpected',
  'ours/Prism',
  'ours/bare',
];

/** The metrics of a load scenario that the load table already shows (`loadMetrics`' keys). */
const LOAD_TABLE_METRIC = /^(?:(?:bare|prism|ours)\.(?:reqPerSec|p50Ms|p99Ms|errors|unexpected)|oursVs(?:Prism|Bare))$/;

function otherRows(results: Results): Row[] {
  const rows: Row[] = [];
  for (const r of Object.values(results.scenarios)) {
    if (r.status === 'skipped') rows.push([r.name, 'skipped', r.reason]);
    else if (r.status === 'failed') rows.push([r.name, 'FAILED', r.error.split('\n')[0] ?? '']);
    else if (!isLoad(r)) for (const [k, v] of Object.entries(r.metrics)) rows.push([r.name, k, num(v, 2)]);
    else
      for (const [k, v] of Object.entries(r.metrics)) if (!LOAD_TABLE_METRIC.test(k)) rows.push([r.name, k, num(v, 2)]);
  }
  return rows;
}

function goalRows(results: Results): Row[] {
  return results.goals.map((g) => [
    g.goal,
    g.value === null ? '-' : `${num(g.value, 2)} ${g.unit}`.trim(),
    g.met === null ? 'n/a' : g.met ? 'met' : 'MISSED',
  ]);
}

function textTable(head: Row, rows: Row[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: Row) =>
    r
      .map((c, i) => (i >= 2 && /^[-\d.,x ]+$/.test(c) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function mdTable(head: Row, rows: Row[]): string {
  const esc = (c: string) => c.replace(/\|/g, '\\|');
  return [
    `| ${head.map(esc).join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
  ].join('\n');
}

function machineLine(results: Results): string {
  const m = results.machine;
  return `${m.cores} cores, ${m.cpuModel}, ${m.totalMemoryMb} MB, Node ${m.node} (${m.platform}/${m.arch}), ${m.date}, ${results.mode} mode, load average ${m.loadAverageStart} at start / ${m.loadAverageEnd} at end`;
}

/** The terminal report. */
export function textReport(results: Results): string {
  return [
    `Machine: ${machineLine(results)}`,
    '',
    textTable(LOAD_HEAD, loadRows(results)),
    '',
    textTable(['scenario', 'metric', 'value'], otherRows(results)),
    '',
    textTable(['goal', 'value', ''], goalRows(results)),
  ].join('\n');
}

/** The markdown report (`results.md`). */
export function markdownReport(results: Results): string {
  const s = results.settings;
  return [
    '# opsapi mock benchmark',
    '',
    `Machine: ${machineLine(results)}.`,
    '',
    `Load: autocannon, ${String(s.connections)} connections, ${String(s.rounds)} round(s) of ${String(s.durationS)} s per target after ${String(s.warmupS)} s of warm-up, targets interleaved; medians over rounds. ` +
      'Every target runs in its own process on loopback. "unexpected" counts answers whose status is not the expected one (200 list, 204 stock, 401 unauthorized).',
    '',
    '## Throughput and latency',
    '',
    mdTable(LOAD_HEAD, loadRows(results)),
    '',
    '## Other scenarios',
    '',
    mdTable(['scenario', 'metric', 'value'], otherRows(results)),
    '',
    '## Targets',
    '',
    mdTable(['goal', 'value', ''], goalRows(results)),
    '',
    '## Notes',
    '',
    ...Object.values(results.scenarios).flatMap((r) =>
      r.status === 'ok' ? r.notes.map((n) => `- ${r.name}: ${n}`) : [],
    ),
    '',
    'Regenerate with `npm run bench` (details of every round in `results.json`).',
    '',
  ].join('\n');
}
