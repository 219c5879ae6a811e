import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { opsapiNodeArgs } from '../../test/support/cli-command.js';
import { ROOT } from './run-cli.js';

describe('opsapi writing to a reader that stops early (`opsapi conform --list-checks | head -1`)', () => {
  it('exits 0 without a stack trace when its output pipe is closed', async () => {
    const child = spawn(process.execPath, opsapiNodeArgs(['conform', '--list-checks']), {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // The reader takes the first bytes, then goes away, as `head -1` does.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
