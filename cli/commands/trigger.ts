import { Command, InvalidArgumentError } from 'commander';
import { DEFAULT_MOCK_URL } from '../../mock/options.js';
import { adminTokenOf, MintError } from '../mint-on-mock.js';
import { callMockAdmin } from '../mock-admin-call.js';
import { DEFAULT_JWT_SECRET, DEFAULT_ORG } from '../../mock/options.js';
import { flag, integer, orgName } from '../options.js';
import { targetOptions } from '../target-options.js';

/** How long the mock may take to answer the event (it answers once the notifications are queued, not delivered). */
const CALL_TIMEOUT_MS = 15_000;

function json(value: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    return parsed as Record<string, unknown>;
  } catch {
    throw new InvalidArgumentError('--data must be a JSON object');
  }
}

/** `opsapi trigger <EventName>`: emits a catalog event on the mock, like `stripe trigger`. */
export function triggerCommand(): Command {
  return new Command('trigger')
    .description(
      'Emit a catalog event on the mock: every matching subscription of the tenant gets a signed notification.',
    )
    .argument('<eventName>', 'event name, e.g. Warehouse.Shipment.Shipped')
    .option('--version <n>', 'event version (default: every subscribed version)', integer(1, 1000))
    .option('--data <json>', 'the event data (default: realistic generated data)', json)
    .addOption(flag('--base-url <url>', 'the mock', 'BASE_URL').default(DEFAULT_MOCK_URL))
    .addOption(flag('--org <org>', 'tenant', 'ORG').default(DEFAULT_ORG).argParser(orgName))
    .addOption(flag('--token <token>', 'access token (default: minted with --team-key, or with --jwt-secret)', 'TOKEN'))
    .addOption(flag('--jwt-secret <secret>', "the mock's --jwt-secret", 'JWT_SECRET').default(DEFAULT_JWT_SECRET))
    .addOption(targetOptions.adminKey())
    .addOption(targetOptions.teamKey())
    .option('--json', 'print the raw JSON answer')
    .action(
      async (
        eventName: string,
        o: {
          version?: number;
          data?: Record<string, unknown>;
          baseUrl: string;
          org: string;
          token?: string;
          jwtSecret: string;
          adminKey?: string;
          teamKey?: string;
          json?: boolean;
        },
      ) => {
        const keys = { adminKey: o.adminKey || undefined, teamKey: o.teamKey || undefined };
        let token = o.token;
        try {
          token ??= await adminTokenOf({ ...o, teamKey: keys.teamKey }, 300);
        } catch (error) {
          if (!(error instanceof MintError)) throw error;
          process.stderr.write(`opsapi trigger: ${error.message}\n`);
          process.exit(2);
        }
        // A target that answered something else than JSON: exit 1 (it answered); unreachable or refused keys are
        // the command's configuration, not the mock's answer to the event: exit 2 (docs/DESIGN.md, "CLI and exit codes").
        const { status, json } = await callMockAdmin(
          {
            baseUrl: o.baseUrl,
            method: 'POST',
            path: '/__mock/events',
            keys,
            token,
            timeoutMs: CALL_TIMEOUT_MS,
            body: {
              eventName,
              ...(o.version ? { eventVersion: o.version } : {}),
              ...(o.data ? { data: o.data } : {}),
            },
          },
          (message, why) => {
            process.stderr.write(`opsapi trigger: ${message}\n`);
            process.exit(why === 'not-json' ? 1 : 2);
          },
        );
        if (typeof json !== 'object' || json === null) {
          process.stderr.write(
            `opsapi trigger: ${o.baseUrl} answered ${status} with no JSON object; is it the mock?\n`,
          );
          process.exit(1);
        }
        const body = json as { eventId?: string; notifications?: string[]; detail?: string };
        if (o.json) process.stdout.write(`${JSON.stringify(body)}\n`);
        else if (status === 202) {
          const n = body.notifications?.length ?? 0;
          process.stdout.write(
            `${eventName}: event ${body.eventId} -> ${n} notification${n === 1 ? '' : 's'}${n ? ` (${body.notifications?.join(', ')})` : ' (no subscription matches; create one or run opsapi listen)'}\n`,
          );
        } else process.stderr.write(`opsapi trigger: ${status} ${body.detail ?? JSON.stringify(body)}\n`);
        process.exit(status === 202 ? 0 : 1);
      },
    );
}
