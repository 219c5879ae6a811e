import type { Group } from './traffic.js';
import { percentile, type KindTally } from './stats.js';

/** Everything a soak run measured. */
export interface SoakResult {
  readonly settings: { seconds: number; warmUpSeconds: number; concurrency: number; tenants: number };
  readonly mock: { pid: number; url: string; exitCode: number | null; crashed: boolean };
  readonly requests: {
    total: number;
    perSecond: number;
    unexpected: number;
    serverErrors: number;
    failures: number;
    byGroup: Record<string, number>;
    byKind: Record<
      string,
      {
        group: Group;
        requests: number;
        unexpected: number;
        serverErrors: number;
        failures: number;
        p50Ms: number;
        p99Ms: number;
        statuses: Record<string, number>;
        examples: string[];
      }
    >;
  };
  /** Latency of `GET /__mock/health` probed every 100 ms from outside: the mock's event-loop responsiveness under load. */
  readonly healthProbe: { probes: number; failures: number; p50Ms: number; p99Ms: number; maxMs: number };
  readonly rssBytes: { start: number | null; end: number | null; peak: number | null };
  /** Heap used right after a full GC, at the start and at the end of the measured run: what the mock really holds. */
  readonly liveHeapBytes: { start: number | null; end: number | null };
  /** What the mock stores at the end: tenants in memory and notifications over all of them (bounded by --max-notifications). */
  readonly stored: { tenants: number | null; notifications: number | null };
  readonly webhooks: { received: number; signatureFailures: number };
  readonly passed: boolean;
}

/** Totals over the kinds (setup requests included: they must succeed too). */
export function summarise(tallies: Map<string, KindTally>, groups: Map<string, Group>): SoakResult['requests'] {
  const byKind: SoakResult['requests']['byKind'] = {};
  const byGroup: Record<string, number> = {};
  let total = 0;
  let unexpected = 0;
  let serverErrors = 0;
  let failures = 0;
  for (const [kind, t] of [...tallies].sort(([a], [b]) => a.localeCompare(b))) {
    const group = groups.get(kind) ?? 'read';
    byKind[kind] = {
      group,
      requests: t.requests,
      unexpected: t.unexpected,
      serverErrors: t.serverErrors,
      failures: t.failures,
      p50Ms: round(percentile(t.latenciesMs, 50)),
      p99Ms: round(percentile(t.latenciesMs, 99)),
      statuses: t.statuses,
      examples: t.examples,
    };
    if (kind !== 'setup') byGroup[group] = (byGroup[group] ?? 0) + t.requests;
    total += t.requests;
    unexpected += t.unexpected;
    serverErrors += t.serverErrors;
    failures += t.failures;
  }
  return { total, perSecond: 0, unexpected, serverErrors, failures, byGroup, byKind };
}

export function round(n: number): number {
  return Math.round(n * 10) / 10;
}

const mb = (bytes: number | null) => (bytes === null ? 'n/a' : `${(bytes / (1024 * 1024)).toFixed(1)} MB`);

/** The compact text summary. */
export function textSummary(r: SoakResult): string {
  const lines: string[] = [];
  lines.push(
    `soak: ${r.settings.seconds} s (+${r.settings.warmUpSeconds} s warm-up), ${r.settings.concurrency} workers, ${r.settings.tenants} tenants, mock pid ${r.mock.pid}`,
  );
  lines.push('');
  const header = ['kind', 'group', 'requests', 'unexpected', '5xx', 'p50 ms', 'p99 ms', 'statuses'];
  const rows = Object.entries(r.requests.byKind).map(([kind, k]) => [
    kind,
    k.group,
    String(k.requests),
    String(k.unexpected),
    String(k.serverErrors),
    k.p50Ms.toFixed(1),
    k.p99Ms.toFixed(1),
    Object.entries(k.statuses)
      .map(([s, n]) => `${s}:${n}`)
      .join(' '),
  ]);
  rows.push([
    'total',
    '',
    String(r.requests.total),
    String(r.requests.unexpected),
    String(r.requests.serverErrors),
    '',
    '',
    `${r.requests.perSecond.toFixed(0)} req/s`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const fmt = (row: string[]) =>
    row
      .map((c, i) => (i >= 2 && i <= 6 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  lines.push(fmt(header));
  for (const row of rows) lines.push(fmt(row));
  lines.push('');
  lines.push(
    `requests by group:      ${Object.entries(r.requests.byGroup)
      .map(([g, n]) => `${g} ${n}`)
      .join(', ')}`,
  );
  lines.push(
    `health probe latency:   p50 ${r.healthProbe.p50Ms.toFixed(1)} ms, p99 ${r.healthProbe.p99Ms.toFixed(1)} ms, max ${r.healthProbe.maxMs.toFixed(1)} ms (${r.healthProbe.probes} probes, ${r.healthProbe.failures} failed)`,
  );
  lines.push(
    `mock RSS:               start ${mb(r.rssBytes.start)} (after warm-up), end ${mb(r.rssBytes.end)}, peak ${mb(r.rssBytes.peak)}`,
  );
  lines.push(
    `mock live heap (GC'd):  start ${mb(r.liveHeapBytes.start)}, end ${mb(r.liveHeapBytes.end)} (stored at end: ${r.stored.tenants ?? '?'} tenants, ${r.stored.notifications ?? '?'} notifications)`,
  );
  lines.push(`webhook deliveries:     ${r.webhooks.received} received`);
  lines.push(
    `unexpected errors: ${r.requests.unexpected}   5xx: ${r.requests.serverErrors}   signature failures: ${r.webhooks.signatureFailures}   no answer: ${r.requests.failures}${r.mock.crashed ? '   MOCK EXITED DURING THE RUN' : ''}`,
  );
  const examples = Object.entries(r.requests.byKind).flatMap(([kind, k]) => k.examples.map((e) => `  ${kind}: ${e}`));
  if (examples.length) lines.push('unexpected answers (first of each kind):', ...examples.slice(0, 20));
  lines.push(`result: ${r.passed ? 'PASS' : 'FAIL'}`);
  return `${lines.join('\n')}\n`;
}
