#!/usr/bin/env node
import { Command, type CommanderError } from 'commander';
import { mockCommand } from './commands/mock.js';
import { tokenCommand } from './commands/token.js';
import { triggerCommand } from './commands/trigger.js';
import { listenCommand } from './commands/listen.js';
import { specCommand } from './commands/spec.js';
import { conformCommand } from './commands/conform.js';
import { coverageCommand } from './commands/coverage.js';
import { VERSION } from '../common/version.js';

/** `opsapi`: one binary for the kit (DESIGN / CLI). Every flag also reads `OPSAPI_*` from the environment. */
const program = new Command()
  .name('opsapi')
  .description('Contract kit for the Operations Platform API: stateful mock, conformance runner, webhook tools.')
  // `-V, --version` belongs to the program only: with positional options, program options are read before the
  // command name only, so a command's own `--version` (trigger's event version) reaches that command (inferred).
  .version(VERSION, '-V, --version', 'output the version number of opsapi')
  .enablePositionalOptions()
  .showHelpAfterError()
  .addCommand(mockCommand())
  .addCommand(tokenCommand())
  .addCommand(triggerCommand())
  .addCommand(listenCommand())
  .addCommand(specCommand())
  .addCommand(conformCommand())
  .addCommand(coverageCommand());

// Usage errors exit 2 (DESIGN: exit codes); --help and --version exit 0. Subcommands added with
// addCommand() do not inherit the override, so each gets it.
const onExit = (error: CommanderError) => process.exit(error.exitCode === 0 ? 0 : 2);
program.exitOverride(onExit);
for (const command of program.commands) command.exitOverride(onExit);

await program.parseAsync(process.argv);
