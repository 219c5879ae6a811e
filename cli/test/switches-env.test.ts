import { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { applySwitchesFromEnv, flag } from '../options.js';

/** A command with a switch, a negatable switch and a flag with a value, as the CLI declares them. */
function parse(
  env: Record<string, string>,
  argv: string[] = [],
): { options?: Record<string, unknown>; error?: string } {
  for (const [name, value] of Object.entries(env)) process.env[name] = value;
  const outcome: { options?: Record<string, unknown>; error?: string } = {};
  const command = new Command('conform')
    .addOption(flag('--allow-skips', 'allow skips', 'ALLOW_SKIPS'))
    .addOption(flag('--no-mock-admin', 'no admin API', 'NO_MOCK_ADMIN'))
    .addOption(flag('--base-url <url>', 'target', 'BASE_URL'))
    .exitOverride((error) => {
      throw error;
    })
    .configureOutput({ writeErr: (text) => (outcome.error = text.trim()) })
    .action((options: Record<string, unknown>) => {
      outcome.options = options;
    });
  const program = new Command().addCommand(command).hook('preAction', (_p, c) => applySwitchesFromEnv(c));
  try {
    program.parse(['node', 'opsapi', 'conform', ...argv]);
  } catch (error) {
    outcome.error ??= (error as Error).message;
  }
  return outcome;
}

const NAMES = ['OPSAPI_ALLOW_SKIPS', 'OPSAPI_NO_MOCK_ADMIN', 'OPSAPI_BASE_URL'];
afterEach(() => {
  for (const name of NAMES) delete process.env[name];
});

describe('switches read from OPSAPI_* variables', () => {
  it.each(['1', 'true', 'TRUE', 'yes', 'on'])('turn on for %s', (value) => {
    expect(parse({ OPSAPI_ALLOW_SKIPS: value }).options).toMatchObject({ allowSkips: true });
  });

  it.each(['0', 'false', 'False', 'no', 'off', ''])('stay off for %j (commander alone turned them on)', (value) => {
    expect(parse({ OPSAPI_ALLOW_SKIPS: value }).options?.allowSkips).toBe(false);
  });

  it('turn a --no-x switch on, so x off, only for a true value', () => {
    expect(parse({ OPSAPI_NO_MOCK_ADMIN: 'true' }).options).toMatchObject({ mockAdmin: false });
    expect(parse({ OPSAPI_NO_MOCK_ADMIN: 'false' }).options).toMatchObject({ mockAdmin: true });
  });

  it('refuse any other value in one line naming the variable (exit 2)', () => {
    const outcome = parse({ OPSAPI_ALLOW_SKIPS: 'maybe' });
    expect(outcome.options).toBeUndefined();
    expect(outcome.error).toBe(
      'error: OPSAPI_ALLOW_SKIPS=maybe is not a switch value: use true or false (1/0, yes/no, on/off)',
    );
  });

  it('yield to the command line', () => {
    expect(parse({ OPSAPI_ALLOW_SKIPS: 'maybe' }, ['--allow-skips']).options).toMatchObject({ allowSkips: true });
  });

  it('leave flags with values as they are', () => {
    expect(parse({ OPSAPI_BASE_URL: 'http://127.0.0.1:1' }).options).toMatchObject({ baseUrl: 'http://127.0.0.1:1' });
  });
});
