import { resolve } from 'node:path';
import { ROOT } from './targets/index.js';

/** Every scenario, in the order they run. */
export const SCENARIOS = [
  'list',
  'list-10k',
  'list-100k',
  'list-100k-varied',
  'stock',
  'unauthorized',
  'proxy',
  'webhooks',
  'conform',
  'conform-remote',
  'startup-and-memory',
  'tenants-10k',
  'start-close',
  'redis',
  'baseline',
  'noisy-neighbour',
  'compaction',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

/** How hard and how long the bench runs. */
export interface Settings {
  mode: 'full' | 'quick';
  connections: number;
  /** Warm-up load per target before the measured rounds (0: none). */
  warmupS: number;
  /** Load per target per round. */
  durationS: number;
  rounds: number;
  /** Upper bound on requests of one load run. */
  maxRequests: number;
  /** Catalog sizes of list-10k / list-100k (null: skipped). */
  bigCatalogs: { 'list-10k': number | null; 'list-100k': number | null };
  webhooks: {
    subscriptions: number;
    events: number;
    triggerConcurrency: number;
    warmupEvents: number;
    pacedEvents: number;
    rounds: number;
    deliveryTimeoutS: number;
  };
  /** SKUs of the startup-and-memory mock, and its list load (seconds). */
  startup: { skus: number; listLoadS: number };
  /**
   * tenants-10k: how many new tenants read once each, and how many of those first reads are in flight at once
   * (1: a first answer's latency is the mock's work for that tenant, not a queue of others' on 2 cores).
   */
  tenants: { count: number; concurrency: number };
  /** start-close: measured cycles of startMock(), first answer, close (after one cold cycle). */
  startCloseCycles: number;
  /**
   * list-100k-varied: the catalog size (null: skipped unless named, like list-100k), seconds of never-repeated
   * filters, and connections of that load (1: each latency is one uncached filter + sort, not a queue).
   */
  varied: { skus: number | null; loadS: number; connections: number };
  conformTimeoutS: number;
  /**
   * noisy-neighbour: seconds of the victim alone (its quiet values), then seconds of the attacker at its rate limit
   * beside it, and how many subscriptions to silent receivers the attacker tries (it stops at the mock's bound). The
   * quiet phase is long enough for a steady p99: at 50 requests/s, 10 s made it the 5th slowest of 500 answers, and it
   * moved from 2.5 to 4.0 ms between runs of one tree.
   */
  noisy: { quietS: number; loadS: number; subscriptions: number };
  /**
   * compaction: how many entities the state holds (written in at most `writeS` seconds), and seconds of the other
   * tenant's list load before (quiet) and from the start of the compaction (during).
   */
  compaction: { entities: number; writeS: number; quietS: number; duringS: number };
  /** conform-remote: the certifying run against the mock 50 ms away (its goal is 30 s; stopped after this). */
  conformRemoteTimeoutS: number;
}

export interface Args {
  settings: Settings;
  scenarios: ScenarioName[];
  /** Whether `--scenarios` named them (a quick run then also runs the slow ones it would skip). */
  scenariosNamed: boolean;
  outDir: string;
  profileDir: string | null;
  /** Our mock's entry point when not `cli/opsapi.ts` through tsx (`--cli`). */
  cli: string | null;
  /** An older build's entry point to compare ours with (`--baseline-cli`; the `baseline` scenario). */
  baselineCli: string | null;
}

const FULL: Settings = {
  mode: 'full',
  connections: 10,
  warmupS: 2,
  durationS: 5,
  rounds: 3,
  maxRequests: 5_000_000,
  bigCatalogs: { 'list-10k': 10_000, 'list-100k': 100_000 },
  webhooks: {
    subscriptions: 10,
    events: 300,
    triggerConcurrency: 8,
    // A round's worth (3,000 deliveries), like the 2 s warm-up of the load scenarios: with 30, the first measured round
    // still ran cold code (3,511 deliveries/s against 6,929 and 7,853 for the next two in one run).
    warmupEvents: 300,
    pacedEvents: 50,
    rounds: 3,
    deliveryTimeoutS: 60,
  },
  startup: { skus: 100_000, listLoadS: 10 },
  tenants: { count: 10_000, concurrency: 1 },
  startCloseCycles: 20,
  varied: { skus: 100_000, loadS: 60, connections: 1 },
  conformTimeoutS: 180,
  conformRemoteTimeoutS: 180,
  noisy: { quietS: 30, loadS: 60, subscriptions: 1000 },
  compaction: { entities: 100_000, writeS: 150, quietS: 10, duringS: 10 },
};

const QUICK: Settings = {
  mode: 'quick',
  connections: 10,
  warmupS: 0,
  durationS: 1,
  rounds: 1,
  maxRequests: 1_000_000,
  bigCatalogs: { 'list-10k': 10_000, 'list-100k': null },
  webhooks: {
    subscriptions: 3,
    events: 30,
    triggerConcurrency: 4,
    warmupEvents: 0,
    pacedEvents: 5,
    rounds: 1,
    deliveryTimeoutS: 20,
  },
  // The quick run is the smoke run (bench/bench.e2e.test.ts): it proves every measurement of a scenario, not its size,
  // so its catalogs, tenant counts and cycles are the smallest that still give each figure a value (inferred; the full
  // run's sizes are unchanged). A tenth of a second of list load is a hundred requests or more even on a loaded
  // machine: enough to prove the RSS measurements; 2,000 SKUs seed in a fraction of the time 10,000 take.
  startup: { skus: 2_000, listLoadS: 0.1 },
  // 50 first reads give every first-answer figure (p50, p99, max, per second, the mock's CPU) and the per-tenant RSS a
  // value; 250 cost about 1.3 s of the mock's CPU on 2 cores.
  tenants: { count: 50, concurrency: 1 },
  // Five cycles give the median and p90 a value; each costs ~50 ms of the bench's own CPU.
  startCloseCycles: 5,
  varied: { skus: null, loadS: 5, connections: 1 },
  conformTimeoutS: 30,
  conformRemoteTimeoutS: 90,
  // A second of each phase and 20 silent subscriptions prove every figure (the victim's p99s, delivery p50s, the heap
  // peak) without the full run's size.
  noisy: { quietS: 1, loadS: 1, subscriptions: 20 },
  // 2,000 entities compact in a moment: enough to prove every figure, not to measure a stall.
  compaction: { entities: 2_000, writeS: 5, quietS: 1, duringS: 1 },
};

export const USAGE = `Usage: npm run bench -- [options]

  --quick              one short round per scenario (smoke run); list-100k, list-100k-varied, conform and
                       conform-remote skipped unless named with --scenarios (list-100k-varied then loads for
                       5 s), startup with 2,000 SKUs, tenants-10k with 50 tenants, start-close with 5 cycles
  --scenarios a,b      run only these (${SCENARIOS.join(', ')})
  --out DIR            write results.json and results.md into DIR (default: bench/)
  --rounds N           measured rounds per scenario
  --duration S         seconds of load per target per round
  --max-requests N     end each load run after N requests, if its duration has not ended it before
  --profile-dir DIR    run our mock with node --cpu-prof, profiles written into DIR
  --cli FILE           run our mock, proxy and conformance runner from this JavaScript file instead of
                       cli/opsapi.ts through tsx; \`npm run bench\` builds dist/ and passes dist/cli/opsapi.js, what
                       the published package runs (measured: under tsx the proxy spent 7x the time in GC)
  --baseline-cli FILE  the baseline scenario: the list, stock and webhook loads against bare node:http, our mock
                       and an older build of it run from FILE (e.g. \`git worktree add ../old <rev>\`, \`npm ci\`
                       and \`npm run build\` there, then ../old/dist/cli/opsapi.js), interleaved, side by side
  --help               this text

  tenants-10k: 10,000 new tenants read a page once each (first answer p50/p99, RSS, heap), then the list load
  spread over them round-robin. list-100k-varied: 60 s of filters and sorts never repeated over 100,000 SKUs
  (p50/p99 of uncached answers, RSS before/after).
`;

/** Parses the command line; throws with a message on a bad argument. */
export function parseArgs(argv: readonly string[]): Args | 'help' {
  let quick = false;
  let scenarios: ScenarioName[] = [...SCENARIOS];
  let scenariosNamed = false;
  let outDir = resolve(ROOT, 'bench');
  let profileDir: string | null = null;
  let cli: string | null = null;
  let baselineCli: string | null = null;
  let rounds: number | null = null;
  let duration: number | null = null;
  let maxRequests: number | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new Error(`${flag} needs a value`);
      return v;
    };
    const positive = (v: string) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} needs a positive number, got "${v}"`);
      return n;
    };
    switch (flag) {
      case '--quick':
        quick = true;
        break;
      case '--scenarios': {
        const names = value()
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        for (const n of names)
          if (!(SCENARIOS as readonly string[]).includes(n))
            throw new Error(`unknown scenario "${n}"; known: ${SCENARIOS.join(', ')}`);
        scenarios = SCENARIOS.filter((s) => names.includes(s));
        scenariosNamed = true;
        break;
      }
      case '--out':
        outDir = resolve(value());
        break;
      case '--profile-dir':
        profileDir = resolve(value());
        break;
      case '--baseline-cli':
        baselineCli = resolve(value());
        break;
      case '--cli':
        cli = resolve(value());
        break;
      case '--rounds':
        rounds = Math.round(positive(value()));
        break;
      case '--duration':
        duration = positive(value());
        break;
      case '--max-requests':
        maxRequests = Math.round(positive(value()));
        break;
      case '--help':
      case '-h':
        return 'help';
      default:
        throw new Error(`unknown argument "${arg}"`);
    }
  }
  const base = quick ? QUICK : FULL;
  const settings: Settings = {
    ...base,
    ...(rounds !== null ? { rounds, webhooks: { ...base.webhooks, rounds } } : {}),
    ...(duration !== null ? { durationS: duration } : {}),
    ...(maxRequests !== null ? { maxRequests } : {}),
  };
  return { settings, scenarios, scenariosNamed, outDir, profileDir, cli, baselineCli };
}
