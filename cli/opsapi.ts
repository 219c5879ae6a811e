#!/usr/bin/env node
import { Command } from 'commander';
import { mockCommand } from './commands/mock.js';
import { tokenCommand } from './commands/token.js';
import { triggerCommand } from './commands/trigger.js';
import { specCommand } from './commands/spec.js';
import { VERSION } from './version.js';

/** `opsapi`: one binary for the kit (DESIGN / CLI). Every flag also reads `OPSAPI_*` from the environment. */
const program = new Command()
  .name('opsapi')
  .description('Contract kit for the Operations Platform API: stateful mock, conformance runner, webhook tools.')
  .version(VERSION)
  .showHelpAfterError()
  .addCommand(mockCommand())
  .addCommand(tokenCommand())
  .addCommand(triggerCommand())
  .addCommand(specCommand());

program.exitOverride((error) => {
  // Usage errors exit 2 (DESIGN: exit codes); --help and --version exit 0.
  process.exit(error.exitCode === 0 ? 0 : 2);
});

await program.parseAsync(process.argv);
