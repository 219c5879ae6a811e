import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The end-to-end files that take longest (measured on 2 cores, longest first): started first, so that no fork is
 * left running one of them alone at the end of the run. Only an order: a file missing here runs after them.
 */
const LONGEST_FIRST: readonly string[] = [
  'conformance/test/proxy.e2e.test.ts',
  'conformance/test/independent-server.e2e.test.ts',
  'test/pack.e2e.test.ts',
  'conformance/test/cli.e2e.test.ts',
  'conformance/test/learn.e2e.test.ts',
  'test/ci-recipe.e2e.test.ts',
  'bench/bench.e2e.test.ts',
  'mock/replication/test/replicas.e2e.test.ts',
  'conformance/test/prism.e2e.test.ts',
  'mock/replication/test/replicas-conformance.e2e.test.ts',
  'conformance/test/credentials.e2e.test.ts',
  'conformance/test/gate.e2e.test.ts',
  'mock/replication/test/replica-failures.e2e.test.ts',
  'mock/test/reliability/fuzz.e2e.test.ts',
  'cli/test/coverage.e2e.test.ts',
  'conformance/test/runner.e2e.test.ts',
  'bench/soak.e2e.test.ts',
];

/**
 * Vitest orders files by the durations it recorded in an earlier run (node_modules/.vite), longest first; a fresh
 * clone has none, and it then orders by file size, which started the longest files last (measured: vitest 80.8 s
 * and 88.2 s on two fresh clones of the same tree). This sequencer keeps vitest's order when every file has a
 * recorded duration and otherwise puts the files of `LONGEST_FIRST` first, in that order.
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const cache = this.ctx.cache;
    const root = this.ctx.config.root;
    const key = (f: TestSpecification) => f.moduleId.slice(root.length + 1);
    if (sorted.every((f) => cache.getFileTestResults(`${f.project.name}:${key(f)}`))) return sorted;
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.indexOf(key(f));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    // Array.prototype.sort is stable: files outside the list keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
