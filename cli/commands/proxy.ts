import { Command } from 'commander';
import { VERSION } from '../../common/version.js';
import { ProxyChecker, type Violation } from '../../conformance/proxy/checker.js';
import { type Interceptor, parseTarget, startForwardingProxy } from '../../conformance/proxy/forward.js';
import { HarRecorder } from '../../conformance/proxy/har.js';
import { verdictOf } from '../../conformance/report/run-verdict.js';
import type { Report } from '../../conformance/types.js';
import { flag, integer } from '../options.js';
import { reportNameProblem, writeReport } from '../report-files.js';
import { judgingContract } from '../../conformance/contract/judging-contract.js';
import { readDecisionFile } from '../read-decisions.js';
import type { DecisionFile } from '../../spec/decisions/index.js';

interface Flags {
  target?: string;
  host: string;
  port: number;
  report?: string[];
  record?: string;
  via?: boolean;
  keep: number;
  quiet?: boolean;
  decisions?: string;
}

const collectRaw = (value: string, previous: string[] = []) => [...previous, value];

/** One line per violation, as it happens: level, check id, the exchange and what is wrong. */
function violationLine(v: Violation): string {
  return `${v.level} ${v.check}: ${v.message}\n`;
}

/** The totals printed when the proxy stops. */
function summary(report: Report): string {
  const t = report.traffic;
  const failed = report.checks.filter((c) => c.outcome === 'fail');
  const lines = [
    `opsapi proxy: ${t?.exchanges ?? 0} exchanges, ${t?.withViolations ?? 0} with violations, ${t?.transportErrors ?? 0} not answered by the target`,
    `  operations called ${t?.operations.called ?? 0}/${t?.operations.total ?? 0}, declared answers met ${t?.pairs.met ?? 0}/${t?.pairs.total ?? 0}, requests not in the contract ${t?.notInContract.count ?? 0}`,
    ...failed.map((c) => `  ${c.level} ${c.id}: ${c.failureCount} violation${c.failureCount === 1 ? '' : 's'}`),
    `  ${verdictOf(report).text} (exit ${report.exitCode})`,
  ];
  return `${lines.join('\n')}\n`;
}

/** `GET /__proxy/report`: the report so far, as JSON; other `/__proxy/` paths are a 404 problem. */
function intercept(checker: ProxyChecker): Interceptor {
  return {
    prefix: '/__proxy/',
    answer({ method, target }) {
      const path = target.split('?')[0];
      if (method === 'GET' && path === '/__proxy/report')
        return {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: `${JSON.stringify(checker.report())}\n`,
        };
      return {
        status: 404,
        headers: { 'content-type': 'application/problem+json' },
        body: JSON.stringify({
          type: 'about:blank',
          title: 'Not Found',
          status: 404,
          detail: 'the proxy answers GET /__proxy/report only; every other path is forwarded to the target',
          instance: `${method} ${path}`,
        }),
      };
    },
  };
}

/** `opsapi proxy`: a transparent proxy that checks every exchange with the runner's rules (docs/DESIGN.md, "Learning: proxy and learn"). */
export function proxyCommand(): Command {
  return new Command('proxy')
    .description(
      'forward every request to a deployment unchanged and check each exchange with the conformance rules; reports on SIGINT/SIGTERM (exit 1 on a MUST violation)',
    )
    .addOption(flag('--target <url>', 'base URL of the deployment to forward to (required)', 'TARGET'))
    .addOption(flag('--host <host>', 'address the proxy binds', 'HOST').default('127.0.0.1'))
    .addOption(
      flag('--port <port>', 'port the proxy binds (0: any)', 'PORT').default(4020).argParser(integer(0, 65535)),
    )
    .addOption(
      flag('--report <file>', 'write a report on exit: .json, .xml (JUnit) or .html (repeatable)', 'REPORT').argParser(
        collectRaw,
      ),
    )
    .addOption(flag('--record <file.har>', 'record every exchange as HAR 1.2, credentials redacted', 'RECORD'))
    .addOption(flag('--via', 'add a Via header to forwarded requests (default: add nothing)', 'VIA'))
    .addOption(
      flag('--keep <n>', 'last exchanges kept in full for the report (older ones are counted)', 'KEEP')
        .default(200)
        .argParser(integer(1, 100_000)),
    )
    .addOption(flag('--quiet', 'print no violation lines, only the summary', 'QUIET'))
    .addOption(
      flag(
        '--decisions <file>',
        'what the deployment was observed to do where the contract infers (opsapi learn --out): judge by that',
        'DECISIONS',
      ),
    )
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2))
    .action(async (o: Flags) => {
      const fail = (message: string): never => {
        process.stderr.write(`opsapi proxy: ${message}\n`);
        process.exit(2);
      };
      if (!o.target) fail('--target is required (or OPSAPI_TARGET)');
      const target = parseTarget(o.target as string);
      if (!target.ok) fail(`--target: ${target.error}`);
      for (const file of o.report ?? []) {
        const bad = reportNameProblem(file);
        if (bad) fail(bad);
      }
      let decisions: DecisionFile | undefined;
      if (o.decisions) {
        const read = await readDecisionFile(o.decisions);
        if (!read.ok) fail(read.error);
        else decisions = read.file;
      }
      const judging = judgingContract(decisions);
      const checker = new ProxyChecker({
        target: new URL(o.target as string),
        validator: judging.validator,
        env: judging,
        keep: o.keep,
        ...(o.quiet ? {} : { onViolation: (v: Violation) => process.stderr.write(violationLine(v)) }),
      });
      let har: HarRecorder | undefined;
      if (o.record) {
        try {
          har = await HarRecorder.open(o.record, { creator: { name: 'opsapi proxy', version: VERSION } });
        } catch (error) {
          fail(`--record ${o.record}: ${(error as Error).message}`);
        }
      }
      let proxy: Awaited<ReturnType<typeof startForwardingProxy>>;
      try {
        proxy = await startForwardingProxy({
          target: o.target as string,
          host: o.host,
          port: o.port,
          via: o.via === true,
          intercept: intercept(checker),
          onExchange: (captured) => {
            checker.add(captured);
            har?.add(captured);
          },
        });
      } catch (error) {
        return fail(`cannot listen on ${o.host}:${o.port}: ${(error as Error).message}`);
      }
      process.stdout.write(
        `opsapi proxy listening on ${proxy.url} -> ${o.target}\n  report so far: ${proxy.url}/__proxy/report\n`,
      );
      let stopping = false;
      const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        process.stderr.write(`opsapi proxy: ${signal}, stopping\n`);
        await proxy.close();
        await har?.close();
        const report = checker.report();
        process.stdout.write(summary(report));
        for (const file of o.report ?? []) {
          writeReport(file, report);
          process.stderr.write(`opsapi proxy: wrote ${file}\n`);
        }
        if (o.record) process.stderr.write(`opsapi proxy: wrote ${o.record}\n`);
        process.exit(report.exitCode);
      };
      process.once('SIGINT', () => void stop('SIGINT'));
      process.once('SIGTERM', () => void stop('SIGTERM'));
    });
}
