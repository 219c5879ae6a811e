import { readFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Each source keeps its own `import.meta.url` (the URL of its file in this checkout), so what a module finds relative
 * to itself (package.json for the version, the contract files) is found as when tsx runs the sources.
 */
const ownImportMetaUrl: Plugin = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async ({ path }) => ({
      contents: (await readFile(path, 'utf8')).replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href)),
      loader: 'ts',
    }));
  },
};

/**
 * Compiles `cli/opsapi.ts` with every source it imports into ES modules in `outDir` (which must lie inside this
 * checkout, e.g. under node_modules/.cache, so that the packages they import resolve to this checkout's
 * node_modules) and returns the path of the entry file. Why (inferred; measured on 2 cores): `node --import tsx
 * cli/opsapi.ts` spends ~1.2 s of CPU loading the sources one by one through tsx's loader thread at every start; the
 * compiled CLI starts in ~0.2-0.45 s, and the e2e tests start it some 80 times per run. It is the same esbuild
 * transform tsx applies, done once per test run. The CLI loads each command lazily, so the output is split into
 * chunks: a command's packages are imported only when that command runs.
 */
export function compileCli(outDir: string): Promise<string> {
  return compileEntry('cli/opsapi.ts', outDir);
}

/** Compiles another entry point of this checkout (a path from its root) the same way, e.g. the benchmark's runner. */
export async function compileEntry(entry: string, outDir: string): Promise<string> {
  const name = basename(entry, extname(entry));
  await build({
    entryPoints: { [name]: join(root, entry) },
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
    plugins: [ownImportMetaUrl],
  });
  return join(outDir, `${name}.mjs`);
}
