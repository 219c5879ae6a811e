import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Command } from 'commander';
import { decisionTable, learnDecisions } from '../../conformance/learn/learn.js';
import { NoCredentialError, TargetUnreachableError, UsageError } from '../../conformance/runner.js';
import { flag } from '../options.js';
import { targetConformOptions, targetOptions, type TargetFlags } from '../target-options.js';

interface Flags extends TargetFlags {
  baseUrl?: string;
  out?: string;
  allowWrites?: boolean;
  rateLimitProbe?: boolean;
  rateLimitMaxRequests: number;
  rateLimitMaxSeconds: number;
  timeout: number;
}

/**
 * `opsapi learn`: what a deployment does where the contract had to infer (DESIGN: learning from a real deployment).
 * Exit 0 when the file was written; 2 for usage errors, no credential, or an unreachable target.
 */
export function learnCommand(): Command {
  return new Command('learn')
    .description(
      'probe a deployment at each point the contract infers and write what it does (decisions.json) for mock/conform/spec --decisions',
    )
    .addOption(targetOptions.baseUrl())
    .addOption(targetOptions.token())
    .addOption(targetOptions.apiKey())
    .addOption(targetOptions.tokenCommand())
    .addOption(targetOptions.header())
    .addOption(targetOptions.noMockAdmin())
    .addOption(targetOptions.adminKey())
    .addOption(flag('--out <file>', 'where to write the decisions (JSON; required)', 'OUT'))
    .addOption(
      flag(
        '--allow-writes',
        'also probe with writes: refused subscriptions, and one subscription created and deleted',
        'ALLOW_WRITES',
      ),
    )
    .addOption(
      flag(
        '--rate-limit-probe',
        'exceed the rate limit on purpose to see how a 429 tells its delay',
        'RATE_LIMIT_PROBE',
      ),
    )
    .addOption(targetOptions.rateLimitMaxRequests())
    .addOption(targetOptions.rateLimitMaxSeconds())
    .addOption(targetOptions.timeout())
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2))
    .action(async (o: Flags) => {
      const fail = (message: string): never => {
        process.stderr.write(`opsapi learn: ${message}\n`);
        process.exit(2);
      };
      if (!o.baseUrl) fail('--base-url is required (or OPSAPI_BASE_URL)');
      if (!o.out) fail('--out is required (or OPSAPI_OUT): the file the decisions are written to');
      try {
        const file = await learnDecisions({
          ...targetConformOptions(o.baseUrl as string, o),
          allowWrites: o.allowWrites === true,
          rateLimitProbe: o.rateLimitProbe === true,
          rateLimitMaxRequests: o.rateLimitMaxRequests,
          rateLimitMaxSeconds: o.rateLimitMaxSeconds,
          timeoutMs: o.timeout,
        });
        process.stdout.write(decisionTable(file));
        mkdirSync(dirname(o.out as string), { recursive: true });
        writeFileSync(o.out as string, `${JSON.stringify(file, null, 2)}\n`);
        process.stderr.write(`opsapi learn: wrote ${o.out}\n`);
        process.exit(0);
      } catch (error) {
        if (error instanceof UsageError) fail(error.message);
        if (error instanceof TargetUnreachableError) fail(`target unreachable: ${error.message}`);
        if (error instanceof NoCredentialError) fail(error.message);
        throw error;
      }
    });
}
