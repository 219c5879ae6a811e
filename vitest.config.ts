import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/support/sequencer.js';

/**
 * Two layers of tests (inferred; the rule for which file goes where):
 * - e2e: a file named `*.e2e.test.ts`. What it proves needs more than calls inside the test process: a child
 *   process (the CLI, a mock process, npm, Prism, openssl), a browser, the mock listening on a real socket (the wire
 *   itself, the runner against a base URL), or webhook delivery to real receivers over time.
 * - unit: every other `*.test.ts`: pure parts, and the mock's HTTP shell through `app.inject()` (mock/test/harness.ts
 *   `injectHarness`); a loopback receiver that only collects notifications is allowed.
 * `npm run test:unit` runs the unit layer, `npm run test:e2e` the other, `npm test` both after the type check.
 */
const E2E = '**/*.e2e.test.ts';
const IGNORED = ['node_modules/**', 'dist/**', 'bench/.tmp/**'];

/**
 * Tests that import the kit by its package name (`opsapi`, `opsapi/testing`, as client suites do) get its TypeScript
 * sources through the `source` export condition of package.json, so they need no build of dist/ and always test the
 * code in front of them. Vitest adds its own server conditions (`node`, `development|production`) to these.
 */
const SOURCE_CONDITIONS = ['source'];

export default defineConfig({
  resolve: { conditions: SOURCE_CONDITIONS },
  ssr: { resolve: { conditions: SOURCE_CONDITIONS } },
  test: {
    testTimeout: 30_000,
    // The longest end-to-end files first, also on a fresh clone (test/support/sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    hookTimeout: 60_000,
    // Neither pool isolates files, and each keeps min = max workers: with fewer minimum workers than maximum, tinypool
    // ends a run without isolation with an unhandled "Terminating worker thread" (vitest 3.2; inferred by trying both).
    poolOptions: {
      // Unit files share a worker's loaded modules (the contract, ajv, fastify): loading them once per worker instead
      // of once per file is most of the unit layer's time. Every unit file creates its own mocks and tenants.
      threads: { isolate: false, minThreads: 2, maxThreads: 2 },
      // E2E files mostly wait on child processes, sockets and timers, so more of them run at once than there are cores;
      // they too share a worker's loaded modules (each file still starts its own mocks, processes and receivers).
      forks: { isolate: false, minForks: 3, maxForks: 3 },
    },
    projects: [
      { extends: true, test: { name: 'unit', include: ['**/*.test.ts'], exclude: [...IGNORED, E2E], pool: 'threads' } },
      // The e2e set-up compiles the CLI, again only after a change to its sources (test/support/compiled-cli.ts).
      {
        extends: true,
        test: {
          name: 'e2e',
          include: [E2E],
          exclude: IGNORED,
          pool: 'forks',
          globalSetup: ['test/support/e2e-setup.ts'],
        },
      },
    ],
  },
});
