import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Command } from 'commander';
import { readDataFile } from '../read-json.js';
import type { ConformOptions } from '../../conformance/context.js';
import { decisionTable, learnDecisions } from '../../conformance/learn/learn.js';
import {
  CredentialRefusedError,
  NoCredentialError,
  TargetUnreachableError,
  UsageError,
} from '../../conformance/orchestration/runner.js';
import { flag } from '../options.js';
import { targetConformOptions, targetOptions, type TargetFlags } from '../target-options.js';

interface Flags extends TargetFlags {
  baseUrl?: string;
  out?: string;
  data?: string;
}

/** The options of the probes, from the flags (the same names and meanings as `opsapi conform`'s). */
function learnOptions(o: Flags): ConformOptions {
  return {
    ...targetConformOptions(o.baseUrl as string, o),
    ...(o.data ? { data: readDataFile(o.data) } : {}),
  };
}

/**
 * `opsapi learn`: what a deployment does where the contract had to infer (README "Learning from a real deployment"),
 * with the credentials and inputs `opsapi conform` takes. Exit 0 when the file was written; 2 for usage errors, no
 * credential, a credential the target refuses, or an unreachable target.
 */
export function learnCommand(): Command {
  return new Command('learn')
    .description(
      'probe a deployment at each point the contract infers and write what it does (decisions.json) for mock/conform/spec --decisions',
    )
    .addOption(targetOptions.baseUrl())
    .addOption(targetOptions.token())
    .addOption(
      flag(
        '--limited-token <token>',
        'access token lacking permissions: which permission each 403 names',
        'LIMITED_TOKEN',
      ),
    )
    .addOption(targetOptions.apiKey())
    .addOption(targetOptions.tokenCommand())
    .addOption(
      flag(
        '--other-tenant-token <token>',
        'access token of another tenant (reads of the catalog share it)',
        'OTHER_TENANT_TOKEN',
      ),
    )
    .addOption(targetOptions.webhookSecret())
    .addOption(targetOptions.header())
    .addOption(
      flag(
        '--data <file>',
        'disposable records the write probes address: JSON in the GET /__mock/fixtures format (its deletable family is used up)',
        'DATA',
      ),
    )
    .addOption(targetOptions.noMockAdmin())
    .addOption(targetOptions.adminKey())
    .addOption(targetOptions.teamKey())
    .addOption(targetOptions.org())
    .addOption(flag('--out <file>', 'where to write the decisions (JSON; required)', 'OUT'))
    .addOption(
      flag(
        '--allow-writes',
        'also probe with writes: refused and created subscriptions, an API key, and with --data stock, lines, a family',
        'ALLOW_WRITES',
      ),
    )
    .addOption(
      flag(
        '--webhooks',
        'host a receiver, subscribe it and learn the payload, the event id header and the attempt records',
        'WEBHOOKS',
      ),
    )
    .addOption(
      flag(
        '--rate-limit-probe',
        'exceed the rate limit on purpose to see how a 429 tells its delay',
        'RATE_LIMIT_PROBE',
      ),
    )
    .addOption(targetOptions.webhookHost())
    .addOption(targetOptions.webhookPort())
    .addOption(targetOptions.webhookPublicUrl())
    .addOption(targetOptions.deliveryTimeout('how long to wait for a delivery, and for a notification to settle, ms'))
    .addOption(targetOptions.concurrency())
    .addOption(
      targetOptions.pace(
        "requests per second the probes allow themselves per tenant, to stay within the target's rate limit (0: unpaced)",
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
        const file = await learnDecisions(learnOptions(o));
        process.stdout.write(decisionTable(file));
        mkdirSync(dirname(o.out as string), { recursive: true });
        writeFileSync(o.out as string, `${JSON.stringify(file, null, 2)}\n`);
        process.stderr.write(`opsapi learn: wrote ${o.out}\n`);
        for (const note of file.notes ?? []) process.stderr.write(`opsapi learn: ${note}\n`);
        process.exit(0);
      } catch (error) {
        if (error instanceof UsageError) fail(error.message);
        if (error instanceof TargetUnreachableError) fail(`target unreachable: ${error.message}`);
        if (error instanceof NoCredentialError) fail(error.message);
        if (error instanceof CredentialRefusedError) fail(error.message);
        throw error;
      }
    });
}
