import { CONTRACT_VERSION } from '../../spec/build.js';
import {
  DECISION_FORMAT,
  decisionPoint,
  type DecisionFile,
  type RecordedDecision,
} from '../../spec/decisions/index.js';
import { VERSION } from '../../common/version.js';
import type { ConformOptions } from '../context.js';
import { openRun } from '../runner.js';
import { Observations } from './observations.js';
import { PROBES, type ProbeContext } from './probes.js';

/** Why a kind of probe did not run. */
const OFF = {
  write: 'writes are off: pass --allow-writes',
  'rate-limit': 'the rate-limit probe is off: pass --rate-limit-probe',
} as const;

/** The target as recorded in the file: no credentials in the URL. */
function shownTarget(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.username = '';
  url.password = '';
  return url.href.replace(/\/+$/, '');
}

/**
 * `opsapi learn`: probes a deployment at every inferred point it can provoke (read-only unless `allowWrites`; the
 * rate limit only with `rateLimitProbe`) and returns the decision file: per point, the contract's inferred value, the
 * observed one and the exchanges that showed it (credentials redacted). Points it could not provoke are listed with
 * the reason. Throws like the runner for bad options, an unreachable target or no credential.
 */
export async function learnDecisions(options: ConformOptions): Promise<DecisionFile> {
  const run = await openRun(options, true);
  const seen = new Observations(run.redactor);
  const p: ProbeContext = {
    run,
    seen,
    send: async (spec) => {
      const ex = await run.client.send('learn', spec);
      seen.scan(ex);
      return ex;
    },
  };
  try {
    for (const probe of PROBES) {
      const off =
        probe.kind === 'write' && !options.allowWrites
          ? OFF.write
          : probe.kind === 'rate-limit' && !options.rateLimitProbe
            ? OFF['rate-limit']
            : undefined;
      if (off) {
        for (const id of probe.points()) seen.cannot(id, off);
        continue;
      }
      try {
        await probe.run(p);
      } catch (error) {
        for (const id of probe.points()) seen.cannot(id, `the ${probe.name} probe failed: ${(error as Error).message}`);
      }
    }
  } finally {
    await run.client.close();
  }
  const decisions: RecordedDecision[] = seen.entries().map(([id, s]) => {
    const point = decisionPoint(id);
    const inferred = point?.inferred as RecordedDecision['inferred'];
    return {
      id,
      title: point?.title ?? id,
      inferred,
      observed: s.observed as RecordedDecision['observed'],
      differs: JSON.stringify(inferred) !== JSON.stringify(s.observed),
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
  };
}

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** The console table: "inferred -> observed", the points that differ first, then those not observed. */
export function decisionTable(file: DecisionFile): string {
  const differ = file.decisions.filter((d) => d.differs);
  const rows = file.decisions.map(
    (d) => `${d.differs ? 'DIFFERS ' : 'same    '} ${d.id}: ${show(d.inferred)} -> ${show(d.observed)}`,
  );
  const width = Math.max(0, ...rows.map((r) => r.length));
  return [
    `opsapi learn: ${file.target}: ${file.decisions.length} decisions observed, ${differ.length} differ from the contract, ${file.notObserved.length} not observed`,
    `         point: inferred -> observed`,
    ...rows,
    ...(file.notObserved.length ? ['-'.repeat(Math.min(width, 100)), 'not observed:'] : []),
    ...file.notObserved.map((n) => `  ${n.id}: ${n.reason}`),
    '',
  ].join('\n');
}
