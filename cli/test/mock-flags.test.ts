import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { defaultOptions, MOCK_OPTIONS, type MockOptionName, type MockOptions } from '../../mock/options.js';
import type { MockOption } from '../../mock/options/kinds.js';
import { StartMockOptionsSchema } from '../../testing/options.js';
import { mockCommand } from '../commands/mock.js';
import { optionsFromFlags } from '../commands/mock-flags.js';

const ENTRIES = Object.entries(MOCK_OPTIONS) as [MockOptionName, MockOption][];

/** The mock's options as `opsapi mock` reads them from a command line (no variable set), without starting anything. */
async function optionsOf(args: string[]): Promise<Partial<MockOptions>> {
  let values: Record<string, unknown> = {};
  const command = mockCommand()
    .exitOverride()
    .action((o: Record<string, unknown>) => {
      values = o;
    });
  await new Command().addCommand(command).parseAsync(['mock', ...args], { from: 'user' });
  return optionsFromFlags(values);
}

describe('the flags of opsapi mock and the options of startMock, read from the table of mock options', () => {
  it('are one flag per option, with its variable, then the output flags of the CLI', () => {
    const flags = mockCommand().options.map((o) => [o.flags, o.envVar]);
    expect(flags).toEqual([
      ...ENTRIES.map(([, spec]) => [spec.flag, `OPSAPI_${spec.env}`]),
      ['--quiet', 'OPSAPI_QUIET'],
      ['--print-json', 'OPSAPI_PRINT_JSON'],
    ]);
  });

  it('are one startMock option per option, by its name, in the same order', () => {
    expect(Object.keys(StartMockOptionsSchema.properties)).toEqual(ENTRIES.map(([field, spec]) => spec.name ?? field));
  });

  it('show each default in --help, as the option writes it', () => {
    const command = mockCommand();
    const help = command.configureHelp({ helpWidth: 1000 }).helpInformation().split('\n');
    const lineOf = (flag: string) => help.find((l) => l.trimStart().startsWith(`${flag} `)) ?? '';
    for (const [, spec] of ENTRIES) {
      const line = lineOf(spec.flag);
      expect(line, spec.flag).toContain(spec.help);
      const shown = command.options.find((o) => o.flags === spec.flag)?.defaultValueDescription;
      if (shown === undefined) expect(line, spec.flag).not.toContain('default:');
      else expect(line, spec.flag).toContain(`(default: ${shown}, env: OPSAPI_${spec.env})`);
    }
    // A parsed value in its own grammar, text quoted, `unset`'s words where there is no value, none for a switch.
    const { rateLimit, host, cacheMb } = MOCK_OPTIONS;
    expect(lineOf(rateLimit.flag)).toContain(`(default: ${rateLimit.value.format(rateLimit.default)},`);
    expect(lineOf(host.flag)).toContain(`(default: "${host.default}",`);
    expect(lineOf(cacheMb.flag)).toContain(`(default: ${cacheMb.unset},`);
    expect(lineOf('--log-requests')).not.toContain('default:');
  });

  it('give the embedded defaults when no flag is given', async () => {
    const { textCase, equalsCase, ...defaults } = defaultOptions();
    expect(await optionsOf([])).toEqual(defaults);
  });

  it('read each value with the parser of its kind', async () => {
    const options = await optionsOf([
      ...['--rate-limit', 'off', '--latency', '50-200ms', '--retry-schedule', '0,5s,1m'],
      ...['--delivery-timeout', '2s', '--cache-mb', '3', '--no-admin', '--state', 'state.json'],
      ...['--fault', 'contains-as-equals', '--fault', 'auth-401-with-code,page-size-default-20'],
    ]);
    expect(options).toMatchObject({
      // Off is null, as MockOptions says, not the empty string commander makes of a parser's null.
      rateLimit: null,
      latency: { min: 50, max: 200 },
      retrySchedule: [0, 5, 60],
      deliveryTimeoutMs: 2000,
      cacheMb: 3,
      admin: false,
      stateFile: 'state.json',
      faults: new Set(['contains-as-equals', 'auth-401-with-code', 'page-size-default-20']),
    });
    expect((await optionsOf(['--latency', 'off'])).latency).toBeNull();
  });
});
