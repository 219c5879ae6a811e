import { Command } from 'commander';
import type { startMock } from '../../mock/server.js';
import { defaultOptions } from '../../mock/options.js';
import { bannerLines, startupFacts } from './mock-announce.js';
import { mockFlags, optionsFromFlags } from './mock-flags.js';
import { checkBindable, checkWritableFile, oneLine, systemErrorCode } from '../preflight.js';
import { readDecisionFile } from '../read-decisions.js';
import { sharedModeRefusal } from '../../mock/shared-mode.js';

/** `opsapi mock`: the stateful mock server with embedded defaults (`npm start`); its flags are the mock's options (mock/options.ts). */
export function mockCommand(): Command {
  const command = new Command('mock').description(
    'Start the stateful mock server (embedded fixtures; no configuration needed).',
  );
  for (const option of mockFlags()) command.addOption(option);
  return command.action(async (o: Record<string, unknown>) => {
    const options = optionsFromFlags(o);
    const refuse = (line: string): never => {
      process.stderr.write(`opsapi mock: ${line}\n`);
      process.exit(2);
    };
    // Shared mode, secure by default (docs/DESIGN.md, "Shared sandbox"): a non-loopback --host with the default JWT secret or an
    // unguarded admin API, or a short --admin-key, is refused before anything is built or bound (mock/shared-mode.ts).
    const unsafe = sharedModeRefusal({ ...defaultOptions(), ...options });
    if (unsafe) refuse(unsafe);
    // Bad --decisions, --host, --port or --state: one line and exit 2 before anything is built, bound or written.
    if (o.decisions !== undefined) {
      const decisions = await readDecisionFile(String(o.decisions));
      if (!decisions.ok) refuse(decisions.error);
      else options.decisions = decisions.file;
    }
    const bindable = await checkBindable(options.host ?? '', options.port ?? 0);
    if (!bindable.ok) refuse(bindable.error);
    if (options.stateFile) {
      const writable = await checkWritableFile(options.stateFile, '--state');
      if (!writable.ok) refuse(writable.error);
    }
    let mock: Awaited<ReturnType<typeof startMock>>;
    try {
      // Loaded only here: a refused command line (most of the CLI's exits 2) never loads the server (~0.1 s of CPU).
      const { startMock: start } = await import('../../mock/server.js');
      mock = await start(options);
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'StateFileError' || name === 'SharedModeError') refuse((error as Error).message);
      // --redis unreachable or serving replicas with other settings (mock/replication/).
      if (name === 'RedisUnavailableError' || name === 'ReplicationConfigError') refuse((error as Error).message);
      const code = systemErrorCode(error);
      if (code === 'EADDRINUSE') refuse(`${options.host}:${options.port} is already in use; pick another --port.`);
      // Another system error (the state file unreadable, the port taken since the check): still one line.
      if (code) refuse(`cannot start: ${oneLine(error)}`);
      throw error;
    }
    const running = mock;
    const facts = await startupFacts(running, options.jwtSecret ?? '');
    if (o.printJson) {
      // One JSON line, the only output ever written to stdout: a harness in any language reads it
      // (docs/DESIGN.md, "Testing API"). The banner goes to stderr, where a human or a container log still sees it.
      process.stdout.write(`${JSON.stringify(facts)}\n`);
      if (!o.quiet) process.stderr.write(`${bannerLines(running, options, facts).join('\n')}\n`);
    } else {
      process.stdout.write(`${(o.quiet ? [running.url] : bannerLines(running, options, facts)).join('\n')}\n`);
    }
    // Graceful shutdown: stop accepting, finish in-flight requests and deliveries, persist, exit 0.
    const shutdown = async (signal: string) => {
      process.stderr.write(`opsapi mock: ${signal}, shutting down\n`);
      const force = setTimeout(() => process.exit(1), 30_000);
      force.unref();
      await running.close();
      process.exit(0);
    };
    process.once('SIGINT', () => void shutdown('SIGINT'));
    process.once('SIGTERM', () => void shutdown('SIGTERM'));
  });
}
