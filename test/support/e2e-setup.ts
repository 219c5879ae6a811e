import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { compileCli } from './compiled-cli.js';
import { processAlive } from './process-alive.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The CLI compiled for this test run (test/support/compiled-cli.ts). */
    opsapiCli: string;
  }
}

const root = fileURLToPath(new URL('../../', import.meta.url));
const cache = join(root, 'node_modules', '.cache');
const PREFIX = 'opsapi-e2e-';

/** Folders of earlier runs that ended without their teardown (killed): their process is gone. */
function removeStale(): void {
  for (const name of readdirSync(cache)) {
    const pid = Number(name.startsWith(PREFIX) ? name.slice(PREFIX.length).split('-')[0] : NaN);
    if (Number.isInteger(pid) && !processAlive(pid)) rmSync(join(cache, name), { recursive: true, force: true });
  }
}

/**
 * Global set-up of the e2e layer: compiles the CLI once for the run, in a folder of its own (several runs may share
 * this checkout at once), removed when the run ends.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  mkdirSync(cache, { recursive: true });
  removeStale();
  const dir = mkdtempSync(join(cache, `${PREFIX}${process.pid}-`));
  project.provide('opsapiCli', await compileCli(dir));
  return () => rmSync(dir, { recursive: true, force: true });
}
