import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { MockOptions } from '../../mock/options.js';
import { mockCommand } from '../commands/mock.js';
import { optionsFromFlags } from '../commands/mock-flags.js';

/** The mock's options as `opsapi mock` reads them from a command line, without starting anything. */
async function optionsOf(args: string[]): Promise<Partial<MockOptions>> {
  let values: Record<string, unknown> = {};
  const command = mockCommand()
    .exitOverride()
    .configureOutput({ writeErr: () => undefined })
    .action((o: Record<string, unknown>) => {
      values = o;
    });
  await new Command().addCommand(command).parseAsync(['mock', ...args], { from: 'user' });
  return optionsFromFlags(values);
}

describe('the network flags of opsapi mock', () => {
  it('read --allow-private-endpoints alone as every private address, and a list as its items', async () => {
    expect((await optionsOf([])).allowPrivateEndpoints).toEqual({ all: false, cidrs: [], hosts: [] });
    expect((await optionsOf(['--allow-private-endpoints'])).allowPrivateEndpoints).toMatchObject({ all: true });
    expect((await optionsOf(['--allow-private-endpoints', '--port', '0'])).allowPrivateEndpoints).toMatchObject({
      all: true,
    });
    const listed = await optionsOf([
      '--allow-private-endpoints',
      'host.docker.internal,172.17.0.0/16',
      '--allow-private-endpoints',
      'fd00::1',
    ]);
    expect(listed.allowPrivateEndpoints).toEqual({
      all: false,
      cidrs: ['172.17.0.0/16', 'fd00::1/128'],
      hosts: ['host.docker.internal'],
    });
  });

  it('refuse what is not a CIDR, an origin or a host name', async () => {
    await expect(optionsOf(['--allow-private-endpoints', '10.0.0.0/40'])).rejects.toThrow(/prefix/);
    await expect(optionsOf(['--cors-origin', 'http://localhost:5173/app'])).rejects.toThrow(/web origin/);
    await expect(optionsOf(['--allowed-host', 'http://mock.internal'])).rejects.toThrow(/host name/);
  });

  it('read origins, host names, timeouts and the cap', async () => {
    const options = await optionsOf([
      '--cors-origin',
      'http://LOCALHOST:5173,https://harness.example',
      '--allowed-host',
      'Mock.Internal',
      '--headers-timeout',
      '2s',
      '--request-timeout',
      '5s',
      '--idle-timeout',
      '750',
      '--max-connections',
      '50',
    ]);
    expect(options).toMatchObject({
      corsOrigin: ['http://localhost:5173', 'https://harness.example'],
      allowedHost: ['mock.internal'],
      headersTimeout: 2000,
      requestTimeout: 5000,
      idleTimeout: 750,
      maxConnections: 50,
    });
  });
});
