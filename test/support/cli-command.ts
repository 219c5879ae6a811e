import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The arguments of `node` that run `opsapi <args>`: the CLI compiled for this test run by the e2e layer's set-up
 * (test/support/e2e-setup.ts), or the sources through tsx's loader when a test runs without that set-up.
 */
export function opsapiNodeArgs(args: readonly string[]): string[] {
  const compiled = inject('opsapiCli');
  return compiled ? [compiled, ...args] : ['--import', 'tsx', join(root, 'cli/opsapi.ts'), ...args];
}
