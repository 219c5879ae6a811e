import { problemOf } from '../contract/bodies.js';
import { evidenceOf, type Exchange } from '../wire/client.js';
import { finish } from '../report/build-report.js';
import { trafficVerdict } from '../report/run-verdict.js';
import { UnknownFieldLines } from '../checks/unknown-info.js';
import { EXCHANGE_RULES, type ExchangeRule, type Finding, ruleIdentity, type RuleEnv } from '../rules/index.js';
import { bodyOf } from '../rules/schema.js';
import { Redactor } from '../wire/redact.js';
import type { CheckResult, Evidence, Level, Report } from '../types.js';
import { type Answer, answerOf, CoverageTally } from './coverage.js';
import { headerValue, type CapturedExchange } from './exchange.js';
import { toExchange } from './judged-exchange.js';
import { ExchangeRing } from './ring.js';

/** Failures kept as evidence per rule, and information lines per schema rule (the rest are counted). */
const MAX_EVIDENCE = 8;
const MAX_INFO = 20;

/** Judgments kept for exchanges seen again (oldest dropped first), and the largest body a kept one may hold. */
const MEMO_SIZE = 1000;
const MEMO_BODY_BYTES = 64 * 1024;

/** What judging one exchange found: its answer for the coverage, and the findings of each rule that applied. */
interface Judgment {
  answer: Answer;
  rules: { index: number; findings: Finding[] }[];
  /** The bodies it was judged on (copies): an exchange of the same key is the same only with the same bytes. */
  requestBody: Buffer;
  responseBody: Buffer;
}

/** The identity of an exchange for the rules, but for its bodies: request line, status, media type, body sizes. */
function judgmentKey(x: CapturedExchange): string {
  const type = headerValue(x.responseHeaders, 'content-type') ?? '';
  return `${x.method} ${x.target} ${x.status} ${type} ${x.requestBodySize} ${x.responseBodySize}`;
}

/** Whether a kept judgment is that of this exchange: same key (looked up) and the same body bytes. */
function sameBodies(known: Judgment, x: CapturedExchange): boolean {
  return known.responseBody.equals(x.responseBody) && known.requestBody.equals(x.requestBody);
}

/** One violation, as printed when it happens. */
export interface Violation {
  level: Level;
  check: string;
  exchange: Exchange;
  message: string;
}

interface Tally {
  rule: ExchangeRule;
  covered: number;
  failureCount: number;
  evidence: Evidence[];
}

interface ProxyCheckerOptions {
  /** The target's URL (its path is the base path the contract's paths are below). */
  target: URL;
  env?: Omit<RuleEnv, 'basePath'>;
  validator: RuleEnv['validator'];
  /** Exchanges kept in full for the report (default 200). */
  keep?: number;
  onViolation?: (violation: Violation) => void;
}

/**
 * Judges every exchange the proxy forwards by the runner's exchange rules (conformance/rules/), as it happens, and
 * keeps a report in bounded memory: per rule, counters and the first failures as evidence; coverage counters; the
 * last exchanges in a ring.
 */
export class ProxyChecker {
  private readonly redactor = new Redactor();
  private readonly env: RuleEnv;
  private readonly tallies: Tally[] = EXCHANGE_RULES.map((rule) => ({
    rule,
    covered: 0,
    failureCount: 0,
    evidence: [],
  }));
  private readonly coverage = new CoverageTally();
  private readonly unknown: Record<Level, UnknownFieldLines>;
  private readonly ring: ExchangeRing<TrafficLine>;
  private readonly started = Date.now();
  private readonly memo = new Map<string, Judgment>();
  private memoHits = 0;
  private exchanges = 0;
  private withViolations = 0;
  private transportErrors = 0;

  constructor(private readonly options: ProxyCheckerOptions) {
    for (const header of ['x-admin-key', 'x-hmac-signature']) this.redactor.addHeader(header);
    this.env = {
      ...options.env,
      basePath: options.target.pathname.replace(/\/+$/, ''),
      validator: options.validator,
    };
    this.unknown = { MUST: new UnknownFieldLines(options.validator), SHOULD: new UnknownFieldLines(options.validator) };
    this.ring = new ExchangeRing(Math.max(1, options.keep ?? 200));
  }

  /** Judges one forwarded exchange; returns its violations (also passed to `onViolation`). */
  add(captured: CapturedExchange): Violation[] {
    this.exchanges++;
    if (captured.status === 0) {
      this.transportErrors++;
      this.remember(toExchange(captured, this.env.basePath, this.redactor), []);
      return [];
    }
    const key = judgmentKey(captured);
    const known = this.memo.get(key);
    if (known && sameBodies(known, captured)) return this.replay(known, captured);
    const ex = toExchange(captured, this.env.basePath, this.redactor);
    const rawCode = ex.status >= 400 ? problemOf(ex)?.code : undefined;
    const judgment: Judgment = {
      answer: answerOf(ex, typeof rawCode === 'string' ? rawCode : null),
      rules: [],
      requestBody: Buffer.from(captured.requestBody),
      responseBody: Buffer.from(captured.responseBody),
    };
    const violations: Violation[] = [];
    this.coverage.addAnswer(judgment.answer);
    for (const [index, tally] of this.tallies.entries()) {
      if (!tally.rule.applies(ex)) continue;
      const findings = tally.rule.judge(ex, this.env);
      judgment.rules.push({ index, findings });
      tally.covered++;
      for (const finding of findings) violations.push(this.failure(tally, ex, finding));
      if (tally.rule.family === 'schema')
        this.unknown[tally.rule.level].add(ex.operationId as string, ex.status, bodyOf(ex));
    }
    if (captured.responseBody.length + captured.requestBody.length <= MEMO_BODY_BYTES) {
      if (!this.memo.has(key) && this.memo.size >= MEMO_SIZE) this.memo.delete(this.memo.keys().next().value as string);
      this.memo.set(key, judgment);
    }
    this.remember(ex, violations);
    return violations;
  }

  /**
   * An exchange identical to one judged before (same request line and body, same status, media type and body): the
   * rules are pure functions of those, so their findings are the same; only the counters move. The exchange is
   * rebuilt only when its evidence is still wanted.
   */
  private replay(known: Judgment, captured: CapturedExchange): Violation[] {
    this.coverage.addAnswer(known.answer);
    let ex: Exchange | undefined;
    const violations: Violation[] = [];
    for (const { index, findings } of known.rules) {
      const tally = this.tallies[index] as Tally;
      tally.covered++;
      for (const finding of findings) {
        ex ??= toExchange(captured, this.env.basePath, this.redactor);
        violations.push(this.failure(tally, ex, finding));
      }
    }
    this.memoHits++;
    this.remember(ex ?? { ...known.answer, seq: captured.seq, target: captured.target }, violations);
    return violations;
  }

  private failure(tally: Tally, ex: Exchange, finding: Finding): Violation {
    tally.failureCount++;
    if (tally.evidence.length < MAX_EVIDENCE)
      tally.evidence.push(evidenceOf(ex, this.redactor, finding.message, finding.expected, finding.actual));
    return { level: tally.rule.level, check: tally.rule.id, exchange: ex, message: finding.message };
  }

  private remember(
    ex: Pick<Exchange, 'seq' | 'method' | 'target' | 'status'> & { operationId?: string | undefined },
    violations: Violation[],
  ): void {
    if (violations.length) this.withViolations++;
    this.ring.push({
      seq: ex.seq,
      method: ex.method,
      target: this.redactor.text(ex.target),
      status: ex.status,
      ...(ex.operationId ? { operationId: ex.operationId } : {}),
      violations: [...new Set(violations.map((v) => v.check))],
    });
    for (const v of violations) this.options.onViolation?.(v);
  }

  /** Whether a MUST violation was seen. */
  get mustViolated(): boolean {
    return this.tallies.some((t) => t.rule.level === 'MUST' && t.failureCount > 0);
  }

  /** The report so far, in the runner's format (JSON, JUnit and HTML writers take it), with the traffic's coverage. */
  report(): Report {
    const checks: CheckResult[] = this.tallies.map(({ rule, covered, failureCount, evidence }) => {
      const info = rule.family === 'schema' ? this.unknown[rule.level].ordered() : [];
      return {
        ...ruleIdentity(rule),
        outcome: failureCount > 0 ? 'fail' : covered > 0 ? 'pass' : 'skip',
        reason:
          covered > 0
            ? `${covered} exchange${covered === 1 ? '' : 's'} judged`
            : 'no exchange of the traffic was one this rule judges',
        evidence,
        failureCount,
        durationMs: 0,
        ...(info.length ? { info: info.slice(0, MAX_INFO), infoCount: info.length } : {}),
      };
    });
    const source = {
      // A proxy proves only what its traffic showed: rules that met no exchange are skipped, never a reason to fail.
      options: { baseUrl: this.options.target.href.replace(/\/+$/, ''), allowSkips: true },
      redactor: this.redactor,
      mockAdmin: false,
      notes: [] as string[],
    };
    const report = finish(source, checks, this.started, 'opsapi proxy');
    const coverage = this.coverage.summary();
    const withTraffic: Report = {
      ...report,
      traffic: {
        exchanges: this.exchanges,
        withViolations: this.withViolations,
        transportErrors: this.transportErrors,
        judgedAgain: this.memoHits,
        ...coverage,
        recent: this.ring.items(),
      },
    };
    // The traffic's verdict (PASSED or FAILED by MUST violations), not a run's.
    return { ...withTraffic, verdict: trafficVerdict(withTraffic) };
  }
}

type TrafficLine = NonNullable<Report['traffic']>['recent'][number];
