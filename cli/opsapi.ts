#!/usr/bin/env node
import { Command, type CommanderError } from 'commander';
import { VERSION } from '../common/version.js';
import { applySwitchesFromEnv } from './options.js';

/**
 * The commands, each loaded only when it runs: a command's module pulls in what it needs (the mock server, the
 * conformance runner, the contract), and loading all of them costs every start ~0.25 s of CPU that `opsapi token` or
 * a usage error never needed (inferred; measured with the CLI compiled into one file).
 */
const COMMANDS = {
  mock: async () => (await import('./commands/mock.js')).mockCommand(),
  token: async () => (await import('./commands/token.js')).tokenCommand(),
  trigger: async () => (await import('./commands/trigger.js')).triggerCommand(),
  listen: async () => (await import('./commands/listen.js')).listenCommand(),
  spec: async () => (await import('./commands/spec.js')).specCommand(),
  conform: async () => (await import('./commands/conform.js')).conformCommand(),
  coverage: async () => (await import('./commands/coverage.js')).coverageCommand(),
  proxy: async () => (await import('./commands/proxy.js')).proxyCommand(),
  learn: async () => (await import('./commands/learn.js')).learnCommand(),
  team: async () => (await import('./commands/team.js')).teamCommand(),
  'client-checks': async () => (await import('./commands/client-checks.js')).clientChecksCommand(),
} as const satisfies Record<string, () => Promise<Command>>;

/**
 * The command a command line names (its first word that is not an option), or all of them when it names none or an
 * unknown one: `opsapi --help` lists every command, and commander suggests the nearest name for a typo.
 */
function commandsFor(argv: readonly string[]): (keyof typeof COMMANDS)[] {
  const args = argv.slice(2);
  const first = args.find((arg) => !arg.startsWith('-'));
  if (first !== undefined && first in COMMANDS) return [first as keyof typeof COMMANDS];
  // `opsapi --version` (or -V) alone prints the version: no command's module is needed for that.
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) return [];
  return Object.keys(COMMANDS) as (keyof typeof COMMANDS)[];
}

// A reader that stops early (`opsapi conform --list-checks | head`) closes the pipe: the output is not wanted any more,
// which is no error of the command (exit 0, no stack trace), as for other Unix tools.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

/** `opsapi`: one binary for the kit (docs/DESIGN.md, "CLI and exit codes"). Every flag also reads `OPSAPI_*` from the environment. */
const program = new Command()
  .name('opsapi')
  .description('Contract kit for the Operations Platform API: stateful mock, conformance runner, webhook tools.')
  // `-V, --version` belongs to the program only: with positional options, program options are read before the
  // command name only, so a command's own `--version` (trigger's event version) reaches that command (inferred).
  .version(VERSION, '-V, --version', 'output the version number of opsapi')
  .enablePositionalOptions()
  .showHelpAfterError()
  .hook('preAction', (_program, command) => applySwitchesFromEnv(command));
for (const command of await Promise.all(commandsFor(process.argv).map((name) => COMMANDS[name]())))
  program.addCommand(command);

// Usage errors exit 2 (docs/DESIGN.md, "CLI and exit codes"); --help and --version exit 0. Subcommands added with
// addCommand() do not inherit the override, so each gets it.
const onExit = (error: CommanderError) => process.exit(error.exitCode === 0 ? 0 : 2);
program.exitOverride(onExit);
for (const command of program.commands) command.exitOverride(onExit);

await program.parseAsync(process.argv);
