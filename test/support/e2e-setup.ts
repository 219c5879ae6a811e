import type { TestProject } from 'vitest/node';
import { compileCli } from './compiled-cli.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The CLI compiled for this test run (test/support/compiled-cli.ts). */
    opsapiCli: string;
  }
}

/**
 * Global set-up of the e2e layer: the compiled CLI for the run, built again only when a file it is built from changed
 * (test/support/build-cache.ts: a build's folder is never written once named, so runs sharing this checkout may share
 * it, and unused ones are removed after an hour).
 */
export default async function setup(project: TestProject): Promise<void> {
  // Every process of this layer speaks plain HTTP on loopback (npm runs offline): none needs extra CA certificates,
  // and a Node process given NODE_EXTRA_CA_CERTS parses that bundle at start, ~35 ms of CPU each (measured on 2 cores
  // with the system bundle), ~150 processes per run. The workers and their children inherit the environment from here.
  delete process.env.NODE_EXTRA_CA_CERTS;
  project.provide('opsapiCli', await compileCli());
}
