import { Command, type CommanderError } from 'commander';
import type { MockKeys } from '../../common/mock-keys.js';
import { textReport } from '../../common/report/text.js';
import { certificationReasons, idList, isBroken, makeVerdict } from '../../common/report/verdict.js';
import { CLIENT_FAMILIES } from '../../mock/client-checks/checks.js';
import { type ClientReport, clientReportHtml, clientReportJunit } from '../../mock/client-checks/report.js';
import { START_BOUNDS } from '../../mock/client-checks/run.js';
import { DEFAULT_MOCK_URL } from '../../mock/options.js';
import { callMockAdmin } from '../mock-admin-call.js';
import { duration, flag, integer } from '../options.js';
import { checkWritableFile } from '../preflight.js';
import { reportNameProblem, writeReportWith } from '../report-files.js';
import { targetOptions } from '../target-options.js';

const NAME = 'opsapi client-checks';
const PATH = '/__mock/client-checks';

/** Longest one call to the mock's admin API may take (inferred: it answers in milliseconds; a hung one is a fault). */
/** How often `--wait` asks for the report again (inferred: pending windows last a second or more). */
const POLL_MS = 250;

interface CommonFlags {
  baseUrl: string;
  token?: string;
  adminKey?: string;
  teamKey?: string;
}

interface StartFlags extends CommonFlags {
  profile?: 'observe' | 'certify';
  seed?: number;
  retryAfterSeconds?: number;
  answerWithinMs?: number;
  readWithinMs?: number;
}

interface ReportFlags extends CommonFlags {
  report?: string[];
  certify?: boolean;
  strict?: boolean;
  /** Milliseconds (the flag reads seconds by default). */
  wait?: number;
}

/** One line on stderr and the exit code (docs/DESIGN.md, "CLI and exit codes": 2 for usage errors and unreachable mocks). */
function fail(message: string): never {
  process.stderr.write(`${NAME}: ${message}\n`);
  process.exit(2);
}

/**
 * One call to `/__mock/client-checks*` for the token's tenant: the answer's JSON body, or one line and exit 2 (an
 * unreachable mock, refused keys or token, no checks running, an answer that is not the mock's).
 */
async function call(o: CommonFlags, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
  const url = `${o.baseUrl.replace(/\/+$/, '')}${path}`;
  const keys: MockKeys = { adminKey: o.adminKey || undefined, teamKey: o.teamKey || undefined };
  const {
    status,
    json,
    said: detail,
  } = await callMockAdmin({ baseUrl: o.baseUrl, method, path, body, keys, token: o.token }, fail);
  // The mock's 404 of a tenant without checks names their entity; any other 404 is a server without the route.
  const entity = (json as { parameters?: { entity?: unknown } } | undefined)?.parameters?.entity;
  if (status === 404 && entity === 'ClientChecks')
    fail(`no client checks are running for the token's tenant; start them with ${NAME} start`);
  if (status === 404)
    fail(`${method} ${url} answered 404: is it a mock with client checks (a newer opsapi), with its admin API on?`);
  if (status === 401)
    fail(`the mock refused the token (401${detail ? `: ${detail}` : ''}): pass the tenant's access token in --token`);
  if (status >= 300) fail(`${method} ${url} answered ${status}${detail ? `: ${detail}` : ''}`);
  return json;
}

/** Any server may answer 200: only a body with a report's fields is read as one. */
function asReport(json: unknown, what: string): ClientReport {
  const r = json as Partial<ClientReport> | undefined;
  if (!r || !Array.isArray(r.checks) || !Array.isArray(r.pending) || typeof r.counts !== 'object')
    fail(`${what} answered a body that is not a report of client checks; is it the mock?`);
  return r as ClientReport;
}

/** The report so far; with a wait, asked again until nothing is pending or the wait is over. */
async function readReport(o: ReportFlags): Promise<ClientReport> {
  const what = `GET ${PATH}/report`;
  const deadline = Date.now() + (o.wait ?? 0);
  for (;;) {
    const report = asReport(await call(o, 'GET', `${PATH}/report?format=json`), what);
    if (report.pending.length === 0 || Date.now() + POLL_MS > deadline) return report;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The summary on stdout, in the wording of `opsapi conform` (common/report/text.ts). */
function clientText(report: ClientReport, colour: boolean): string {
  const seconds = (report.durationMs / 1000).toFixed(1);
  const applied = report.perturbations.length;
  return textReport(
    report,
    {
      heading: `${NAME} ${report.tool.version} (contract ${report.contractVersion}) of ${report.target}`,
      subheading: `${report.date}, ${seconds} s, profile ${report.profile}, seed ${report.seed}, ${applied} perturbation(s) applied`,
      families: CLIENT_FAMILIES,
      // A report of an older mock may have no verdict: it reads as its exit code does.
      verdict: report.verdict ?? makeVerdict(report.exitCode === 0 ? 'PASSED' : 'FAILED', report.exitReasons),
      sections: [
        ...(report.pending.length
          ? [{ title: 'Pending', lines: report.pending.map((p) => `${p.what}${p.until ? ` (until ${p.until})` : ''}`) }]
          : []),
        {
          title: 'Not observable from outside (never passed, outside the MUST set)',
          lines: report.notObservable.map((n) => `${n.id}: ${n.title}`),
        },
      ],
    },
    colour,
  );
}

/**
 * Why the command exits 1: the report's own reasons (a MUST check failed); under `--certify` a MUST check not
 * exercised, or observations still pending (inferred: a certificate is given on a settled run only); under
 * `--strict` a SHOULD check failed.
 */
function gateReasons(report: ClientReport, o: ReportFlags): string[] {
  const out = [...report.exitReasons];
  if (o.certify) {
    const skipped = report.checks.filter((r) => r.level === 'MUST' && r.outcome === 'skip');
    if (skipped.length) out.push(`--certify: ${certificationReasons({ ...report, checks: skipped }).join('; ')}`);
    if (report.pending.length)
      out.push(`--certify: ${report.pending.length} observation(s) still pending; wait longer (--wait)`);
  }
  if (o.strict) {
    const should = report.checks.filter((r) => r.level === 'SHOULD' && isBroken(r));
    if (should.length)
      out.push(`--strict: ${should.length} SHOULD check(s) failed: ${idList(should.map((r) => r.id))}`);
  }
  return out;
}

/**
 * The report as the command judged it: its exit code and reasons those of the command's flags, and under `--certify`
 * the certificate's verdict (as `opsapi conform --certify` gives it), so the summary, the files and the exit code
 * read alike.
 */
function gated(report: ClientReport, o: ReportFlags): ClientReport {
  const reasons = gateReasons(report, o);
  const pending = report.pending.length ? [`${report.pending.length} observation(s) still pending`] : [];
  const verdict = !o.certify
    ? report.verdict
    : report.certified && !pending.length
      ? makeVerdict('CERTIFIED', ['every MUST check ran and passed'])
      : makeVerdict('NOT CERTIFIED', [...certificationReasons(report), ...pending]);
  return {
    ...report,
    options: { ...report.options, certify: o.certify === true, strict: o.strict === true },
    exitCode: reasons.length ? 1 : 0,
    exitReasons: reasons,
    ...(verdict ? { verdict } : {}),
  };
}

/** Prints the report (its exit reasons in the summary, as `opsapi conform` does), writes its files, and exits. */
function finish(given: ClientReport, o: ReportFlags): never {
  const report = gated(given, o);
  process.stdout.write(clientText(report, process.stdout.isTTY === true));
  for (const file of o.report ?? []) {
    writeReportWith(file, report, { junit: clientReportJunit, html: clientReportHtml });
    // Said like `opsapi conform` says it: a CI log shows where the artifact is.
    process.stderr.write(`${NAME}: wrote ${file}\n`);
  }
  process.exit(report.exitCode);
}

/** Refuses a report file name or place before anything is asked of the mock. */
async function checkReportFiles(o: ReportFlags): Promise<void> {
  for (const file of o.report ?? []) {
    const bad = reportNameProblem(file);
    if (bad) fail(bad);
    const writable = await checkWritableFile(file, '--report');
    if (!writable.ok) fail(writable.error);
  }
}

/** An empty OPSAPI_TOKEN (a CI secret that is not set) is no credential. */
function needToken(o: CommonFlags): void {
  if (!o.token) fail("needs --token (or OPSAPI_TOKEN): the access token of the client's tenant");
}

/** The flags every subcommand takes: the mock, the tenant's token, and the admin or team key of a keyed mock. */
function withTarget(command: Command): Command {
  return command
    .addOption(flag('--base-url <url>', 'the mock', 'BASE_URL').default(DEFAULT_MOCK_URL))
    .addOption(flag('--token <token>', "access token of the client's tenant (the one the client uses)", 'TOKEN'))
    .addOption(targetOptions.adminKey())
    .addOption(targetOptions.teamKey());
}

/** The flags of the subcommands that read a report. */
function withReport(command: Command): Command {
  return command
    .addOption(
      flag('--report <file>', 'write the report: .json, .xml (JUnit) or .html (repeatable)', 'REPORT').argParser(
        (value: string, previous: string[] = []) => [...previous, value],
      ),
    )
    .addOption(
      flag(
        '--certify',
        'a certificate: also exit 1 when a MUST check was not exercised or is still pending',
        'CERTIFY',
      ),
    )
    .addOption(flag('--strict', 'also exit 1 on SHOULD checks', 'STRICT'))
    .addOption(
      flag(
        '--wait <duration>',
        'first wait until nothing is pending, at most this long (e.g. 30s; a bare number is s)',
        'WAIT',
      ).argParser(duration({ unitless: 's', into: 'ms', min: 0, max: 3_600_000 })),
    );
}

/** An integer flag within the bounds the mock takes the option in (mock/client-checks/run.ts). */
const within = (field: keyof typeof START_BOUNDS) => integer(START_BOUNDS[field].min, START_BOUNDS[field].max);

function startCommand(): Command {
  return withTarget(
    new Command('start').description(
      "Start (or restart, forgetting what was observed) the client checks of the token's tenant.",
    ),
  )
    .addOption(
      flag(
        '--profile <profile>',
        'observe: only watch; certify: also perturb (429s, forged and duplicate deliveries)',
        'PROFILE',
      ).choices(['observe', 'certify']),
    )
    .addOption(
      flag('--seed <n>', 'the seed of the perturbations (default: drawn, and reported)', 'SEED').argParser(
        within('seed'),
      ),
    )
    .addOption(
      flag(
        '--retry-after-seconds <n>',
        'the delay an injected 429 indicates, s (default 1)',
        'RETRY_AFTER_SECONDS',
      ).argParser(within('retryAfterSeconds')),
    )
    .addOption(
      flag(
        '--answer-within-ms <n>',
        'how fast the receiver should answer a delivery, ms (default 2000)',
        'ANSWER_WITHIN_MS',
      ).argParser(within('answerWithinMs')),
    )
    .addOption(
      flag(
        '--read-within-ms <n>',
        "how long the checks wait for the client's read after a delivery, or its retry after a 429's delay, ms (default 5000)",
        'READ_WITHIN_MS',
      ).argParser(within('readWithinMs')),
    )
    .action(async (o: StartFlags) => {
      needToken(o);
      const body = {
        ...(o.profile !== undefined ? { profile: o.profile } : {}),
        ...(o.seed !== undefined ? { seed: o.seed } : {}),
        ...(o.retryAfterSeconds !== undefined ? { retryAfterSeconds: o.retryAfterSeconds } : {}),
        ...(o.answerWithinMs !== undefined ? { answerWithinMs: o.answerWithinMs } : {}),
        ...(o.readWithinMs !== undefined ? { readWithinMs: o.readWithinMs } : {}),
      };
      const started = (await call(o, 'POST', PATH, body)) as { profile?: unknown; seed?: unknown; startedAt?: unknown };
      if (typeof started?.profile !== 'string' || typeof started.seed !== 'number')
        fail(`POST ${PATH} answered a body that is not a start of client checks; is it the mock?`);
      process.stdout.write(
        [
          `client checks started: profile ${started.profile}, seed ${started.seed} (--seed ${started.seed} repeats the perturbations)`,
          `run the client against ${o.baseUrl}, then: ${NAME} report --wait 30s, and ${NAME} stop`,
          '',
        ].join('\n'),
      );
      process.exit(0);
    });
}

function reportCommand(): Command {
  return withReport(
    withTarget(new Command('report').description('Print (and write) the report so far; exit 1 on a MUST failure.')),
  ).action(async (o: ReportFlags) => {
    needToken(o);
    await checkReportFiles(o);
    finish(await readReport(o), o);
  });
}

function stopCommand(): Command {
  return withReport(
    withTarget(new Command('stop').description('End the client checks and print (and write) the final report.')),
  ).action(async (o: ReportFlags) => {
    needToken(o);
    await checkReportFiles(o);
    // The wait reads the report until nothing is pending; the final one is the answer of the stop.
    if (o.wait) await readReport(o);
    finish(asReport(await call(o, 'DELETE', PATH), `DELETE ${PATH}`), o);
  });
}

/**
 * `opsapi client-checks start|report|stop` (docs/DESIGN.md, "Client certification"): the mock judges a client in any
 * language by its traffic. Exit 0: no MUST check failed; 1: one did (under `--certify` also a MUST check not
 * exercised, under `--strict` a SHOULD check failed); 2: usage error, unreachable mock, refused keys, or no checks
 * running.
 */
export function clientChecksCommand(): Command {
  const command = new Command('client-checks').description(
    "Certify a client: the mock judges the tenant's requests and its webhook receiver against the reference's rules.",
  );
  const onExit = (error: CommanderError) => process.exit(error.exitCode === 0 ? 0 : 2);
  for (const sub of [startCommand(), reportCommand(), stopCommand()]) command.addCommand(sub.exitOverride(onExit));
  return command;
}
