import { Command } from 'commander';
import { readDataFile, readJson } from '../read-json.js';
import type { ConformOptions, ProgressEvent } from '../../conformance/context.js';
import { CredentialRefusedError, TargetUnreachableError, UsageError } from '../../conformance/errors.js';
import { flag, integer } from '../options.js';
import { targetConformOptions, targetOptions, type TargetFlags } from '../target-options.js';
import { readDecisionFile } from '../read-decisions.js';
import type { DecisionFile } from '../../spec/decisions/index.js';
import { reportNameProblem, writeReport } from '../report-files.js';
import { RUN_DEFAULTS } from '../../conformance/orchestration/run-defaults.js';

const collect = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean),
];
const collectRaw = (value: string, previous: string[] = []) => [...previous, value];

/** Check ids accepted as failing: a JSON array of ids, `{ "accepted": [...] }`, or a previous JSON report (its failures). */
function readBaseline(file: string): string[] {
  const value = readJson(file, '--baseline');
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  const o = value as { accepted?: unknown; checks?: unknown };
  if (o && Array.isArray(o.accepted) && o.accepted.every((v) => typeof v === 'string')) return o.accepted as string[];
  if (o && Array.isArray(o.checks))
    return (o.checks as { id?: unknown; outcome?: unknown }[])
      .filter((c) => c.outcome === 'fail' || c.outcome === 'error')
      .map((c) => String(c.id));
  throw new UsageError('--baseline: expected an array of check ids, {"accepted": [...]}, or a JSON report');
}

function progress(tty: boolean): (event: ProgressEvent) => void {
  return (event) => {
    if (event.kind === 'receiver') {
      process.stderr.write(
        `opsapi conform: webhook receiver listening on ${event.listening} (deliveries are expected at ${event.deliveriesAt})\n`,
      );
      return;
    }
    if (tty) {
      if (event.kind === 'check-end' || event.kind === 'check-start')
        process.stderr.write(
          `\r\u001b[K[${event.done}/${event.total}] ${event.kind === 'check-start' ? 'running' : event.outcome} ${event.id}`,
        );
      return;
    }
    if (event.kind === 'phase')
      process.stderr.write(`opsapi conform: ${event.phase} phase, ${event.checks} check(s)\n`);
  };
}

interface Flags extends TargetFlags {
  decisions?: string;
  baseUrl?: string;
  data?: string;
  only?: string[];
  skip?: string[];
  baseline?: string;
  certify?: boolean;
  strict?: boolean;
  allowSkips?: boolean;
  report?: string[];
  listChecks?: boolean;
  maxPages: number;
}

async function listChecks(): Promise<void> {
  const { allChecks } = await import('../../conformance/orchestration/registry.js');
  for (const c of allChecks()) {
    const needs = [...(c.requires ?? [])].join(',');
    process.stdout.write(
      `${c.id.padEnd(48)} ${c.level.padEnd(6)} ${c.family.padEnd(11)} ${needs.padEnd(22)} ${c.title}\n`,
    );
  }
}

/**
 * `opsapi conform`: checks a base URL against the contract. Exit 0: no MUST check failed; 1: one did, or more than half
 * of the MUST checks were skipped (unless --allow-skips), or --certify with a MUST check skipped or not selected; 2:
 * usage error, no credential for the target, a credential the target refuses, or an unreachable target.
 */
export function conformCommand(): Command {
  return (
    new Command('conform')
      .description(
        'Check a deployment (or the mock) against the contract: MUST checks for documented behaviour, SHOULD for inferred.',
      )
      .addOption(targetOptions.baseUrl())
      .addOption(targetOptions.token())
      .addOption(
        flag('--limited-token <token>', 'access token lacking permissions, for the 403 checks', 'LIMITED_TOKEN'),
      )
      .addOption(targetOptions.apiKey())
      .addOption(targetOptions.tokenCommand())
      .addOption(
        flag(
          '--other-tenant-token <token>',
          'access token of another tenant, for the isolation checks',
          'OTHER_TENANT_TOKEN',
        ),
      )
      .addOption(targetOptions.webhookSecret())
      .addOption(targetOptions.header())
      .addOption(
        flag(
          '--data <file>',
          'disposable records to address: JSON in the GET /__mock/fixtures format (schema: conformance/data-file.schema.json)',
          'DATA',
        ),
      )
      .addOption(
        flag(
          '--decisions <file>',
          'what the deployment was observed to do where the contract infers (opsapi learn --out): expect that instead',
          'DECISIONS',
        ),
      )
      .addOption(
        flag(
          '--allow-writes',
          'run the checks that change data (stock, inspections, keys, subscriptions, families, lines)',
          'ALLOW_WRITES',
        ),
      )
      .addOption(
        flag(
          '--webhooks',
          'host a receiver, subscribe it and check deliveries, signatures, history and retries',
          'WEBHOOKS',
        ),
      )
      .addOption(
        flag(
          '--rate-limit-probe',
          'exceed the rate limit on purpose (bounded; runs alone and last)',
          'RATE_LIMIT_PROBE',
        ),
      )
      .addOption(targetOptions.webhookHost())
      .addOption(targetOptions.webhookPort())
      .addOption(targetOptions.webhookPublicUrl())
      .addOption(targetOptions.concurrency())
      .addOption(targetOptions.timeout())
      .addOption(
        targetOptions.deliveryTimeout(
          'how long the webhook checks wait for a delivery, and for a notification to reach a final state, ms',
        ),
      )
      .addOption(
        targetOptions.pace(
          "requests per second the run allows itself per tenant, to stay within the target's rate limit (0: unpaced)",
        ),
      )
      .addOption(
        flag('--only <ids>', 'run only these check ids or prefixes (repeatable, comma-separated)', 'ONLY').argParser(
          collect,
        ),
      )
      .addOption(
        flag('--skip <ids>', 'leave out these check ids or prefixes (repeatable, comma-separated)', 'SKIP').argParser(
          collect,
        ),
      )
      .addOption(
        flag(
          '--baseline <file>',
          'accepted failures (ids, {"accepted": [...]}, or a JSON report); a baselined check that passes fails the run as stale',
          'BASELINE',
        ),
      )
      .addOption(
        flag(
          '--certify',
          'a certificate: also fail when a MUST check was skipped, or --only/--skip left checks out',
          'CERTIFY',
        ),
      )
      .addOption(flag('--strict', 'also fail on SHOULD checks', 'STRICT'))
      .addOption(
        flag(
          '--allow-skips',
          'do not fail a run in which more than half of the MUST checks were skipped',
          'ALLOW_SKIPS',
        ),
      )
      .addOption(
        flag('--report <file>', 'write a report: .json, .xml (JUnit) or .html (repeatable)', 'REPORT').argParser(
          collectRaw,
        ),
      )
      .addOption(flag('--list-checks', 'list the checks and exit', 'LIST_CHECKS'))
      .addOption(
        flag('--max-pages <n>', 'most pages a page walk reads', 'MAX_PAGES')
          .default(RUN_DEFAULTS.maxPages)
          .argParser(integer(1, 10_000)),
      )
      .addOption(targetOptions.rateLimitMaxRequests())
      .addOption(targetOptions.rateLimitMaxSeconds())
      .addOption(targetOptions.noMockAdmin())
      .addOption(targetOptions.adminKey())
      .addOption(targetOptions.teamKey())
      .addOption(targetOptions.org())
      // Usage errors exit 2 (--help exits 0); the program's own override does not reach added subcommands.
      .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2))
      .action(async (o: Flags) => {
        if (o.listChecks) {
          await listChecks();
          return;
        }
        const fail = (code: 2, message: string): never => {
          process.stderr.write(`opsapi conform: ${message}\n`);
          process.exit(code);
        };
        try {
          if (!o.baseUrl) throw new UsageError('--base-url is required (or OPSAPI_BASE_URL)');
          for (const file of o.report ?? []) {
            const bad = reportNameProblem(file);
            if (bad) throw new UsageError(bad);
          }
          const data = o.data ? readDataFile(o.data) : undefined;
          let decisions: DecisionFile | undefined;
          if (o.decisions) {
            const read = await readDecisionFile(o.decisions);
            if (!read.ok) throw new UsageError(read.error);
            decisions = read.file;
          }
          const tty = process.stderr.isTTY === true;
          const options: ConformOptions = {
            ...(decisions ? { decisions } : {}),
            ...targetConformOptions(o.baseUrl, o),
            ...(data ? { data } : {}),
            ...(o.only ? { only: o.only } : {}),
            ...(o.skip ? { skip: o.skip } : {}),
            ...(o.baseline ? { baseline: readBaseline(o.baseline) } : {}),
            certify: o.certify === true,
            strict: o.strict === true,
            allowSkips: o.allowSkips === true,
            maxPages: o.maxPages,
            onProgress: progress(tty),
          };
          // Loaded only here: a refused command line never loads the runner and the contract (~0.1 s of CPU).
          const [{ runConformance }, { textSummary }] = await Promise.all([
            import('../../conformance/orchestration/runner.js'),
            import('../../conformance/report/text.js'),
          ]);
          const report = await runConformance(options);
          if (tty) process.stderr.write('\r\u001b[K');
          process.stdout.write(textSummary(report, process.stdout.isTTY === true));
          for (const file of o.report ?? []) {
            writeReport(file, report);
            process.stderr.write(`opsapi conform: wrote ${file}\n`);
          }
          process.exit(report.exitCode);
        } catch (error) {
          if (error instanceof UsageError) fail(2, error.message);
          if (error instanceof TargetUnreachableError) fail(2, `target unreachable: ${error.message}`);
          if (error instanceof CredentialRefusedError) {
            // The progress line of a terminal is cleared first: the refusal is the one line left.
            if (process.stderr.isTTY === true) process.stderr.write('\r\u001b[K');
            fail(2, error.message);
          }
          throw error;
        }
      })
  );
}
