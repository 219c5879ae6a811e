import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The parts of the kit, bottom to top (CONTRIBUTING.md: "Layers"). `api` is the package entry (index.ts, testing.ts, testing/). */
export type Layer = 'spec' | 'common' | 'fixtures' | 'mock' | 'conformance' | 'cli' | 'api' | 'bench' | 'test';

/**
 * What each layer's non-test sources may import. Arrows point down only: spec at the bottom imports nothing of the
 * kit; the runner never imports the mock (it certifies other people's servers); benchmarks use the public API.
 */
export const ALLOWED: Readonly<Record<Layer, readonly Layer[]>> = {
  spec: ['spec'],
  common: ['common', 'spec'],
  fixtures: ['fixtures', 'spec', 'common'],
  mock: ['mock', 'spec', 'fixtures', 'common'],
  conformance: ['conformance', 'spec', 'common'],
  cli: ['cli', 'mock', 'conformance', 'fixtures', 'spec', 'common'],
  api: ['api', 'cli', 'mock', 'conformance', 'fixtures', 'spec', 'common'],
  bench: ['bench', 'api', 'common'],
  test: ['test', 'api', 'common', 'spec'],
};

/** One source file of the kit and the kit files it imports. */
interface SourceFile {
  path: string;
  layer: Layer;
  isTest: boolean;
  imports: string[];
}

const SKIP = new Set(['node_modules', 'dist', '.git']);
const ROOT_API = new Set(['index.ts', 'testing.ts']);

/** The layer of a path relative to the project root, or undefined for files outside the layers (configs). */
export function layerOf(path: string): Layer | undefined {
  // testing/ holds the parts of testing.ts (`opsapi/testing`), a package entry like index.ts.
  if (ROOT_API.has(path) || path.startsWith('testing/')) return 'api';
  const top = path.split('/')[0] ?? '';
  return (['spec', 'common', 'fixtures', 'mock', 'conformance', 'cli', 'bench', 'test'] as const).find(
    (l) => l === top,
  );
}

/** Tests: `*.test.ts`, anything under a `test/` folder of a part, and the top-level `test/` folder. */
function isTestPath(path: string): boolean {
  return path.endsWith('.test.ts') || path.split('/').slice(0, -1).includes('test');
}

function walk(root: string, dir: string, out: string[]): void {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) walk(root, rel, out);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
}

/** The path of every TypeScript source of the kit (in a layer), relative to the project root. */
export function sourcePaths(root: string): string[] {
  const paths: string[] = [];
  walk(root, '', paths);
  return paths.filter((path) => layerOf(path) !== undefined);
}

/** Every TypeScript source of the kit with its relative imports resolved to project paths (TypeScript's own scanner). */
export function readSources(root: string): SourceFile[] {
  const files: SourceFile[] = [];
  for (const path of sourcePaths(root)) {
    const layer = layerOf(path);
    if (!layer) continue;
    const info = ts.preProcessFile(readFileSync(join(root, path), 'utf8'), true, true);
    const imports = info.importedFiles
      .map((f) => f.fileName)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => relative(root, resolve(root, dirname(path), spec)).replace(/\.js$/, '.ts'));
    files.push({ path, layer, isTest: isTestPath(path), imports });
  }
  return files;
}

/** An import that points where its layer may not look. */
interface Violation {
  from: string;
  to: string;
  rule: string;
}

/**
 * Non-test sources follow ALLOWED. Tests may also import their own part's internals and the shared test support
 * (`test/support/`), but reach other parts only through the public API or common helpers.
 */
export function violations(files: readonly SourceFile[]): Violation[] {
  const out: Violation[] = [];
  for (const file of files) {
    for (const to of file.imports) {
      const target = layerOf(to);
      if (!target) continue;
      const allowed = new Set<Layer>(ALLOWED[file.layer]);
      if (file.isTest) {
        for (const l of ALLOWED.test) allowed.add(l);
        allowed.add(file.layer);
        if (to.startsWith('test/support/')) allowed.add('test');
      }
      if (!allowed.has(target))
        out.push({
          from: file.path,
          to,
          rule: `${file.layer}${file.isTest ? ' (test)' : ''} may import ${[...allowed].join(', ')}`,
        });
    }
  }
  return out;
}

/** Import cycles among non-test sources (Tarjan's strongly connected components of more than one file). */
export function cycles(files: readonly SourceFile[]): string[][] {
  const graph = new Map(files.filter((f) => !f.isTest).map((f) => [f.path, f.imports]));
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    indexOf.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indexOf.has(v)) visit(v);
  return found;
}

/**
 * The layers inside `mock/`, bottom to top (CONTRIBUTING.md: "Inside the mock"), by path prefix. A layer may import
 * its own and those below; the decorators (planted faults, adopted decisions, replicas) do not import each other;
 * `admin/` may import `http/`, never the reverse (the HTTP shell does not know the admin API exists).
 */
export const MOCK_LAYERS = [
  {
    name: 'core',
    holds: [
      'mock/clock.ts',
      'mock/problems.ts',
      'mock/rate-limit.ts',
      'mock/cache-memory.ts',
      'mock/bounded-cache.ts',
      'mock/auth/',
      'mock/lists/',
      'mock/store/',
      'mock/teams/',
      'mock/webhooks/',
    ],
  },
  {
    name: 'behaviour',
    holds: [
      'mock/handlers/',
      'mock/coverage/',
      'mock/persistence/',
      'mock/stats.ts',
      'mock/loop-figures.ts',
      'mock/client-checks/',
    ],
  },
  { name: 'shell', holds: ['mock/http/'] },
  { name: 'admin', holds: ['mock/admin/'] },
  { name: 'decorators', holds: ['mock/faults/', 'mock/decisions/', 'mock/replication/'] },
  {
    name: 'root',
    holds: [
      'mock/server.ts',
      'mock/options.ts',
      'mock/options/',
      'mock/shared-mode.ts',
      'mock/control/',
      'mock/recorders.ts',
      'mock/webhook-key.ts',
    ],
  },
] as const;

/** The inner layer of a `mock/` path (its index in MOCK_LAYERS), or -1 for a path no layer holds. */
export function mockLayerOf(path: string): number {
  return MOCK_LAYERS.findIndex((l) =>
    l.holds.some((h: string) => path === h || (h.endsWith('/') && path.startsWith(h))),
  );
}

/** Imports among `mock/`'s non-test sources that point up (or sideways between decorators), and unplaced files. */
export function mockViolations(files: readonly SourceFile[]): Violation[] {
  const out: Violation[] = [];
  const decorators = MOCK_LAYERS.findIndex((l) => l.name === 'decorators');
  const folderOf = (p: string) => p.split('/').slice(0, 2).join('/');
  for (const file of files) {
    if (file.layer !== 'mock' || file.isTest) continue;
    const from = mockLayerOf(file.path);
    if (from === -1) out.push({ from: file.path, to: '', rule: 'every mock/ source belongs to an inner layer' });
    for (const to of file.imports) {
      if (!to.startsWith('mock/')) continue;
      const target = mockLayerOf(to);
      if (target > from)
        out.push({
          from: file.path,
          to,
          rule: `${MOCK_LAYERS[from]?.name} may not import ${MOCK_LAYERS[target]?.name}`,
        });
      else if (from === decorators && target === decorators && folderOf(file.path) !== folderOf(to))
        out.push({ from: file.path, to, rule: 'decorators do not import each other' });
    }
  }
  return out;
}
