import { CONTRACT_VERSION } from '../../spec/build.js';
import {
  DECISION_FORMAT,
  decisionPoints,
  type DecisionFile,
  type RecordedDecision,
} from '../../spec/decisions/index.js';
import { VERSION } from '../../common/version.js';
import type { ConformOptions, RunContext } from '../context.js';
import { startRunReceiver } from '../wire/run-receiver.js';
import { openRun } from '../orchestration/runner.js';
import { Observations } from './observations.js';
import { learnView, type Probe, type ProbeContext } from './probe.js';
import { LAST_PROBE, PROBES } from './probes.js';

export { decisionTable } from './table.js';

/** Why a kind of probe did not run. */
const OFF: Record<Exclude<Probe['kind'], 'read'>, string> = {
  write: 'writes are off: pass --allow-writes',
  webhooks: 'webhooks are off: pass --webhooks',
  'rate-limit': 'the rate-limit probe is off: pass --rate-limit-probe',
};

/** The target as recorded in the file: no credentials in the URL. */
function shownTarget(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.username = '';
  url.password = '';
  return url.href.replace(/\/+$/, '');
}

/** Why a probe cannot run with these options, or undefined when it can. */
function off(probe: Probe, options: ConformOptions, run: RunContext): string | undefined {
  if (probe.kind === 'write' && !options.allowWrites) return OFF.write;
  if (probe.kind === 'rate-limit' && !options.rateLimitProbe) return OFF['rate-limit'];
  if (probe.kind === 'webhooks' && !options.webhooks) return OFF.webhooks;
  if (probe.kind === 'webhooks' && !run.receiver) return run.unavailable.get('webhooks') ?? 'no webhook receiver';
  return undefined;
}

async function runProbe(p: ProbeContext, probe: Probe, options: ConformOptions): Promise<void> {
  const why = off(probe, options, p.run);
  if (why) {
    for (const id of probe.points()) p.seen.cannot(id, why);
    return;
  }
  try {
    await probe.run(p);
  } catch (error) {
    for (const id of probe.points()) p.seen.cannot(id, `the ${probe.name} probe failed: ${(error as Error).message}`);
  }
}

/** Starts the run's webhook receiver (`--webhooks`), as the runner does. */
async function startReceiver(run: RunContext, options: ConformOptions): Promise<void> {
  if (options.webhooks) await startRunReceiver(run, options);
}

/** Undoes what the probes created (subscriptions), newest first; a failing step is noted, never fatal. */
async function cleanUp(run: RunContext): Promise<void> {
  for (const step of [...run.cleanup].reverse()) {
    try {
      await step.run();
    } catch (error) {
      run.notes.push(`Clean-up "${step.label}" failed: ${run.redactor.text((error as Error).message)}`);
    }
  }
  run.cleanup.length = 0;
}

/**
 * `opsapi learn`: probes a deployment at every inferred point it can provoke, with the inputs `opsapi conform` takes
 * (a token lacking permissions, `--data`, `--allow-writes`, `--webhooks`, `--rate-limit-probe`), and returns the
 * decision file: per point, the contract's inferred value, the observed one and the exchanges that showed it
 * (credentials redacted). Every answer of the run is scanned as well (statuses, problems, records). Points it could
 * not provoke are listed with the reason. Throws like the runner for bad options, an unreachable target, no
 * credential or a credential the target refuses.
 */
export async function learnDecisions(options: ConformOptions): Promise<DecisionFile> {
  const run = await openRun(options, true);
  const seen = new Observations(run.redactor);
  const p: ProbeContext = {
    run,
    seen,
    check: learnView(run),
    send: (spec) => run.client.send('learn', spec),
  };
  try {
    await startReceiver(run, options);
    for (const probe of PROBES) await runProbe(p, probe, options);
    await cleanUp(run);
    await runProbe(p, LAST_PROBE, options);
    // A credential the target refused mid-run (and --token-command could not renew) ends learning, as it ends a
    // conformance run: what the probes saw after it would be 401s, not decisions.
    if (run.client.halted) throw run.client.halted;
  } finally {
    await cleanUp(run).catch(() => undefined);
    await run.receiver?.close();
    await run.client.close();
  }
  for (const ex of run.client.exchanges) seen.scan(ex);
  seen.settle();
  const decisions: RecordedDecision[] = seen.entries().map(([id, s]) => {
    const point = decisionPoints().get(id);
    const inferred = point?.inferred as RecordedDecision['inferred'];
    return {
      id,
      title: point?.title ?? id,
      inferred,
      observed: s.observed as RecordedDecision['observed'],
      differs: point ? !point.same(inferred, s.observed) : true,
      evidence: s.evidence,
      ...(s.conflicts.length ? { conflicts: s.conflicts } : {}),
    };
  });
  decisions.sort((a, b) => Number(b.differs) - Number(a.differs) || a.id.localeCompare(b.id));
  return {
    format: DECISION_FORMAT,
    contractVersion: CONTRACT_VERSION,
    target: shownTarget(options.baseUrl),
    date: new Date().toISOString(),
    tool: `opsapi learn ${VERSION}`,
    decisions,
    notObserved: seen.notObserved().sort((a, b) => a.id.localeCompare(b.id)),
    ...(run.notes.length ? { notes: [...run.notes] } : {}),
  };
}
