import { Command, type CommanderError } from 'commander';
import { DEFAULT_MOCK_URL } from '../../mock/options.js';
import { callMockAdmin } from '../mock-admin-call.js';
import { flag, integer, orgName } from '../options.js';
import { targetOptions } from '../target-options.js';

const NAME = 'opsapi team';

/** Longest a call to the mock's admin API may take (inferred: it answers in milliseconds; a hung one is a fault). */

/** A team as the mock shows it (docs/DESIGN.md, "Shared sandbox"). */
interface Team {
  id: string;
  name: string;
  orgPrefix: string;
  maxOrgs: number;
  createdAt?: string;
}

interface CommonFlags {
  baseUrl: string;
  adminKey?: string;
  json?: boolean;
}

/** One line on stderr and exit 2: a usage error, an unreachable mock, or a refusal (docs/DESIGN.md, "CLI and exit codes"). */
function fail(message: string): never {
  process.stderr.write(`${NAME}: ${message}\n`);
  process.exit(2);
}

/** Ends the command: idle keep-alive connections to the mock must not hold the process. */
function done(lines: string): never {
  process.stdout.write(lines);
  process.exit(0);
}

/** One call to `/__mock/teams*` with the operator's key: the answer's status and JSON body, or one line and exit 2. */
async function call(
  o: CommonFlags,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const url = `${o.baseUrl.replace(/\/+$/, '')}${path}`;
  const { status, json, said } = await callMockAdmin(
    { baseUrl: o.baseUrl, method, path, body, keys: { adminKey: o.adminKey || undefined } },
    fail,
  );
  if (status === 404 && said === undefined)
    fail(`${method} ${url} answered 404: is it a mock with teams (a newer opsapi), with its admin API on?`);
  if (status >= 300) fail(`${method} ${url} answered ${status}${said ? `: ${said}` : ''}`);
  return { status, json };
}

/** The flags every subcommand takes: where the mock is and the operator's key. */
function withTarget(command: Command): Command {
  return command
    .addOption(flag('--base-url <url>', 'the mock', 'BASE_URL').default(DEFAULT_MOCK_URL))
    .addOption(targetOptions.adminKey())
    .option('--json', 'print the JSON answer (for scripts)');
}

function createCommand(): Command {
  return withTarget(
    new Command('create')
      .description('Create a team bound to an org prefix; prints its key once (the mock keeps only a digest of it).')
      .requiredOption('--name <name>', 'what you call the team')
      .requiredOption(
        '--org-prefix <prefix>',
        "what every org of the team starts with (e.g. acme-); may not overlap another team's",
        orgName,
      )
      .option(
        '--max-orgs <n>',
        "most of the team's orgs kept in memory at once (default: the mock's)",
        integer(1, 1_000_000),
      ),
  ).action(async (o: CommonFlags & { name: string; orgPrefix: string; maxOrgs?: number }) => {
    const body = { name: o.name, orgPrefix: o.orgPrefix, ...(o.maxOrgs !== undefined ? { maxOrgs: o.maxOrgs } : {}) };
    const { json } = await call(o, 'POST', '/__mock/teams', body);
    const team = json as Team & { teamKey?: unknown };
    if (typeof team?.teamKey !== 'string') fail('the mock answered no team key; is it the mock?');
    if (o.json) done(`${JSON.stringify(team)}\n`);
    done(
      [
        `team ${team.id} (${team.name}): orgs starting with '${team.orgPrefix}', up to ${team.maxOrgs} in memory at once`,
        `team key (shown once; hand it to the team, e.g. as OPSAPI_TEAM_KEY): ${team.teamKey}`,
        '',
      ].join('\n'),
    );
  });
}

function listCommand(): Command {
  return withTarget(new Command('list').description('List the teams (never their keys).')).action(
    async (o: CommonFlags) => {
      const { json } = await call(o, 'GET', '/__mock/teams');
      const teams = (json as { teams?: Team[] } | undefined)?.teams;
      if (!Array.isArray(teams)) fail('the mock answered no list of teams; is it the mock?');
      if (o.json) done(`${JSON.stringify({ teams })}\n`);
      if (teams.length === 0) done('no teams (create one: opsapi team create --name N --org-prefix P)\n');
      const rows = [
        ['id', 'name', 'org prefix', 'max orgs', 'created'],
        ...teams.map((t) => [t.id, t.name, t.orgPrefix, String(t.maxOrgs), t.createdAt ?? '']),
      ];
      const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
      done(
        `${rows
          .map((r) =>
            r
              .map((cell, i) => cell.padEnd(widths[i] ?? 0))
              .join('  ')
              .trimEnd(),
          )
          .join('\n')}\n`,
      );
    },
  );
}

function revokeCommand(): Command {
  return withTarget(
    new Command('revoke')
      .description("Revoke a team: its key and every token it minted stop working at once (its tenants' data stays).")
      .argument('<id>', 'the team id (opsapi team list)'),
  ).action(async (id: string, o: CommonFlags) => {
    await call(o, 'DELETE', `/__mock/teams/${encodeURIComponent(id)}`);
    done(
      o.json
        ? `${JSON.stringify({ id, revoked: true })}\n`
        : `revoked team ${id}: its key and tokens stop working now\n`,
    );
  });
}

/**
 * `opsapi team create|list|revoke` (docs/DESIGN.md, "Shared sandbox"): the operator's teams on a
 * shared mock, with the admin key. Exit 0, or 2 with one line on a usage error, an unreachable mock or a refusal.
 */
export function teamCommand(): Command {
  const command = new Command('team').description(
    "Manage the teams of a shared mock (operator, with --admin-key): each team's key mints tokens for its own orgs only.",
  );
  const onExit = (error: CommanderError) => process.exit(error.exitCode === 0 ? 0 : 2);
  for (const sub of [createCommand(), listCommand(), revokeCommand()]) command.addCommand(sub.exitOverride(onExit));
  return command;
}
