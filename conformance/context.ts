import type { DataManifest } from '../common/data-manifest.js';
import type { DecisionFile } from '../spec/decisions/index.js';
import { evidenceOf, type Exchange, type HttpClient, type RequestSpec } from './wire/client.js';
import type { Judgments } from './judgments.js';
import type { PaceRate } from './wire/pacer.js';
import type { Redactor } from './wire/redact.js';
import type { Finding, RuleEnv } from './rules/index.js';
import type { Receiver } from './wire/receiver.js';
import type { Evidence, Family, Level, Phase, Precondition } from './types.js';

/** Options of a run (`opsapi conform` flags; `runConformance` takes the same). */
export interface ConformOptions {
  baseUrl: string;
  /** Access token with every permission of the contract (minted on a mock). */
  token?: string;
  /** A token lacking permissions (403 checks; minted on a mock). */
  limitedToken?: string;
  /** An API key of the main tenant (`X-Api-Key`); the writes checks also create one. */
  apiKey?: string;
  /** Shell command printing a fresh main token; run at start and when the main token is refused. */
  tokenCommand?: string;
  /** A token of another tenant (isolation checks; minted on a mock). */
  otherTenantToken?: string;
  /** Signing secret of webhook deliveries (read from `/__mock/webhook-secret` on a mock). */
  webhookSecret?: string;
  /** Sample records to address, in the `GET /__mock/fixtures` format (read from the mock when it has the admin API). */
  data?: Partial<DataManifest>;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  allowWrites?: boolean;
  webhooks?: boolean;
  rateLimitProbe?: boolean;
  /** Address the webhook receiver binds (default 127.0.0.1) and its port (default 0: any). */
  webhookHost?: string;
  webhookPort?: number;
  /** URL the target delivers to, when the receiver is reached through a tunnel or proxy. */
  webhookPublicUrl?: string;
  /** Requests in flight at once (default `RUN_DEFAULTS.concurrency`, orchestration/run-defaults.ts, as every bound). */
  concurrency?: number;
  /**
   * The rate each tenant's requests are kept under, so the run does not meet 429s outside the rate-limit probe
   * (default `DEFAULT_PACE` of wire/pacer.ts, the mock's default limit; null: unpaced).
   */
  pace?: PaceRate | null;
  /** Timeout per request, ms (default `RUN_DEFAULTS.timeoutMs`). */
  timeoutMs?: number;
  /**
   * How long the webhook checks wait for a delivery, and for a notification to reach a final state, ms (default
   * `RUN_DEFAULTS.deliveryTimeoutMs`).
   */
  deliveryTimeoutMs?: number;
  /** Check ids or prefixes to run (default: all) and to leave out. */
  only?: string[];
  skip?: string[];
  /** Check ids whose failures are accepted. */
  baseline?: string[];
  certify?: boolean;
  strict?: boolean;
  /**
   * Accept a run in which more than half of the selected MUST checks were skipped (default: exit 1). Checks left out by
   * `only`/`skip` are not selected, so they are not skipped.
   */
  allowSkips?: boolean;
  /** Bounds of the rate-limit probe: requests and seconds (defaults in `RUN_DEFAULTS`). */
  rateLimitMaxRequests?: number;
  rateLimitMaxSeconds?: number;
  /** Most pages a page walk reads (default `RUN_DEFAULTS.maxPages`). */
  maxPages?: number;
  /**
   * What a real deployment was observed to do where the contract infers (`opsapi learn`): the run judges by the
   * contract adapted to them and expects the observed values at those points (still SHOULD).
   */
  decisions?: DecisionFile;
  /** Use the mock's admin API when the target has one (default true). */
  useMockAdmin?: boolean;
  /** The mock's admin key (`X-Admin-Key`), sent on `/__mock/*` calls only, when the mock guards its admin API. */
  adminKey?: string;
  /**
   * A team's key on a shared mock (`X-Team-Key`, docs/DESIGN.md, "Shared sandbox"), sent on
   * `/__mock/*` calls only: tokens are minted for the team's orgs (the org of `token` when given).
   */
  teamKey?: string;
  /**
   * The tenant a run uses on a mock when no token names one (default: a fresh `conform-<random>`); with a team key, one
   * of the team's orgs. Its neighbours `<org>-other` and `<org>-rl` are the other tenant and the rate-limit probe's.
   */
  mockOrg?: string;
  /** Progress events (the CLI prints them). */
  onProgress?: (event: ProgressEvent) => void;
}

/** A progress event of a run. */
export type ProgressEvent =
  | { kind: 'phase'; phase: string; checks: number }
  | { kind: 'check-start'; id: string; done: number; total: number }
  | { kind: 'check-end'; id: string; outcome: string; done: number; total: number }
  /** The webhook receiver listens (`listening`, on this machine); deliveries are expected at `deliveriesAt`. */
  | { kind: 'receiver'; listening: string; deliveriesAt: string };

/** Credentials of the run. */
export interface Credentials {
  main?: string;
  limited?: string;
  other?: string;
  apiKey?: string;
  /** Token of the tenant the rate-limit probe exhausts (its own tenant on a mock). */
  rateLimit?: string;
  /** A token holding every permission but one (mock only), or undefined. */
  without?: (permission: string) => Promise<string | undefined>;
}

/** Everything the checks of one run share. */
export interface RunContext {
  readonly options: Required<
    Pick<
      ConformOptions,
      | 'baseUrl'
      | 'concurrency'
      | 'timeoutMs'
      | 'deliveryTimeoutMs'
      | 'maxPages'
      | 'rateLimitMaxRequests'
      | 'rateLimitMaxSeconds'
    >
  > &
    ConformOptions;
  readonly client: HttpClient;
  readonly redactor: Redactor;
  /** What the exchange rules judge by: the contract's validator (adapted to `--decisions` when given) and the decisions. */
  readonly ruleEnv: RuleEnv;
  /** The target exposes the mock's admin API. */
  readonly mockAdmin: boolean;
  readonly credentials: Credentials;
  /** Sample records (from `--data` or the mock). */
  readonly data: Partial<DataManifest>;
  webhookSecret?: string;
  receiver?: Receiver;
  /** Preconditions met, and why the others are not. */
  readonly unavailable: Map<Precondition, string>;
  /** Shared, memoised work (reads several checks use). */
  memo<T>(key: string, fn: () => Promise<T>): Promise<T>;
  /** The exchange rules' findings and the unknown members of each exchange, worked out once (`judgments.ts`). */
  readonly judgments: Judgments;
  /** Sends a read whose answer checks share: the same request sent again is answered by the first exchange. */
  read(check: string, spec: RequestSpec): Promise<Exchange>;
  /** Undo steps for what the run created, run at the end. */
  readonly cleanup: { label: string; run: () => Promise<void> }[];
  readonly notes: string[];
}

/** One check of the registry. */
export interface CheckDef {
  /** Stable id, `family.rule` (an inferred twin ends in `.inferred`). */
  id: string;
  title: string;
  family: Family;
  /** The section of the reference the check proves. */
  clause: string;
  level: Level;
  requires?: Precondition[];
  /** Default `main`. */
  phase?: Phase;
  /**
   * Reads of a main-phase check that do not depend on what the state phase writes, started with the state phase (in
   * few request slots) and ended by `signal` when it ends, so the main phase finds them done (checks sharing one
   * prefetch function run it once).
   */
  prefetch?(run: RunContext, signal: AbortSignal): Promise<void>;
  run(c: CheckContext): Promise<void>;
}

/** Thrown by `CheckContext.skip`. */
export class SkipSignal extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** Most failures kept as evidence per check. */
const MAX_EVIDENCE = 8;

/** Most information lines kept per check (distinct lines are all counted). */
const MAX_INFO = 20;

/** The view one check has of the run: requests under its name and a collector of failures, coverage and skips. */
export class CheckContext {
  readonly failures: Evidence[] = [];
  failureCount = 0;
  covered = 0;
  readonly uncovered: string[] = [];
  readonly coverage: string[] = [];
  /** Information that is neither a pass nor a failure (first `MAX_INFO` distinct lines); `infoCount` counts them all. */
  readonly infoLines: string[] = [];
  private readonly infoSeen = new Set<string>();

  constructor(
    readonly run: RunContext,
    readonly def: CheckDef,
  ) {}

  get redactor(): Redactor {
    return this.run.redactor;
  }

  /** Sends a request under this check's name. */
  send(spec: RequestSpec): Promise<Exchange> {
    return this.run.client.send(this.def.id, spec);
  }

  /**
   * Sends a read (a list or search request of the main phase) whose answer other checks of the run may share: a check
   * that sends the same request gets the first exchange, and the tenant's rate limit is spent once
   * (`wire/shared-reads.ts`).
   */
  read(spec: RequestSpec): Promise<Exchange> {
    return this.run.read(this.def.id, spec);
  }

  /** Records a failure. */
  fail(message: string, exchange?: Exchange, expected?: string, actual?: string): void {
    this.failureCount++;
    if (this.failures.length < MAX_EVIDENCE)
      this.failures.push(evidenceOf(exchange, this.run.redactor, message, expected, actual));
  }

  /** Records the findings of an exchange rule's judge as failures (`context` is added to each message). */
  findings(list: readonly Finding[], exchange: Exchange, context?: string): void {
    for (const f of list) this.fail(context ? `${f.message} (${context})` : f.message, exchange, f.expected, f.actual);
  }

  /** Records a failure unless `condition` holds; returns the condition. */
  expect(condition: boolean, message: string, exchange?: Exchange, expected?: string, actual?: string): boolean {
    if (!condition) this.fail(message, exchange, expected, actual);
    return condition;
  }

  /** Marks a case as exercised (a check that exercised nothing is skipped, never passed). */
  exercised(what?: string): void {
    this.covered++;
    if (what && this.coverage.length < 40) this.coverage.push(what);
  }

  /** Records information, e.g. a response field the contract does not name; repeated lines count once. */
  inform(line: string): void {
    const text = this.run.redactor.text(line);
    if (this.infoSeen.has(text)) return;
    this.infoSeen.add(text);
    if (this.infoLines.length < MAX_INFO) this.infoLines.push(text);
  }

  get infoCount(): number {
    return this.infoSeen.size;
  }

  /** Notes a case the data could not exercise. */
  cannot(reason: string): void {
    if (!this.uncovered.includes(reason)) this.uncovered.push(reason);
  }

  /** Skips the whole check. */
  skip(reason: string): never {
    throw new SkipSignal(reason);
  }
}

/** Whether a check id is selected by an id or prefix (`lists` selects `lists.defaults` and `lists.defaults.inferred`). */
export function selects(pattern: string, id: string): boolean {
  const p = pattern.trim();
  if (!p) return false;
  if (p.endsWith('*')) return id.startsWith(p.slice(0, -1));
  return id === p || id.startsWith(`${p}.`);
}
