import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin, version as esbuildVersion } from 'esbuild';
import { cachedBuild } from './build-cache.js';

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
 * Compiles `cli/opsapi.ts` with every source it imports into ES modules in a folder under node_modules/.cache (inside
 * this checkout, so that the packages they import resolve to this checkout's node_modules) and returns the path of the
 * entry file. Why (inferred; measured on 2 cores): `node --import tsx cli/opsapi.ts` spends ~1.2 s of CPU loading the
 * sources one by one through tsx's loader thread at every start; the compiled CLI starts in ~0.2-0.45 s, and the e2e
 * tests start it some 80 times per run. It is the same esbuild transform tsx applies, done once per content of the
 * sources (test/support/build-cache.ts). The CLI loads each command lazily, so the output is split into chunks: a
 * command's packages are imported only when that command runs. Most packages are bundled into those chunks too (see
 * UNBUNDLED).
 */
export function compileCli(): Promise<string> {
  return compileEntry('cli/opsapi.ts', { bundlePackages: true });
}

/**
 * Packages that stay imports resolved in this checkout's node_modules: they read files that lie next to their own
 * modules (`__dirname`), which a bundle does not carry: the docs page's assets, autocannon's workers, ioredis' error
 * stacks. Every other package is bundled into the chunks. Why (inferred; measured on 2 cores): resolving and reading
 * the ~60 packages the mock imports, file by file, was half of each start, ~0.2 s of CPU of the ~0.45 s a refused
 * `opsapi mock` costs, and the e2e layer starts the CLI and its mocks some 100 times per run. Bundling costs esbuild
 * ~0.4 s of CPU, so entries started once or twice a run (the benchmark's and the soak's runners) leave every package
 * external. The packages' code is the same; how the kit installs and runs as published is test/pack.e2e.test.ts.
 */
const UNBUNDLED = ['@fastify/swagger', '@fastify/swagger-ui', 'autocannon', 'ioredis'];

/** Bundled CommonJS packages call `require` (built-ins, JSON files): an ES module has none, so each chunk makes one. */
const BUNDLE_REQUIRE = [
  "import { createRequire as __opsapiCreateRequire } from 'node:module';",
  'const require = __opsapiCreateRequire(import.meta.url);',
].join(' ');

/** How a build is made, for its cache key: this file (the options below) and esbuild's version. */
const HOW = `${esbuildVersion}\n${readFileSync(fileURLToPath(import.meta.url), 'utf8')}`;

/**
 * Compiles another entry point of this checkout (a path from its root) the same way, e.g. the benchmark's runner, into
 * a folder of its own; its packages stay imports unless `bundlePackages`. Returns the path of the entry file.
 */
export async function compileEntry(entry: string, options: { bundlePackages?: boolean } = {}): Promise<string> {
  const name = basename(entry, extname(entry));
  const what = `${entry}${options.bundlePackages ? ' (packages bundled)' : ''}`;
  const dir = await cachedBuild(what, HOW, async (outDir) => {
    const result = await esbuildEntry(entry, name, outDir, options);
    // Paths relative to the working directory, which is this checkout's root.
    return Object.keys(result.metafile.inputs).map((file) => relative(root, join(root, file)));
  });
  return join(dir, `${name}.mjs`);
}

/** One esbuild build of `entry` into `outDir`, with the list of the files it read (its metafile). */
function esbuildEntry(entry: string, name: string, outDir: string, options: { bundlePackages?: boolean }) {
  return build({
    absWorkingDir: root,
    metafile: true,
    entryPoints: { [name]: join(root, entry) },
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    ...(options.bundlePackages
      ? { external: UNBUNDLED, banner: { js: BUNDLE_REQUIRE } }
      : { packages: 'external' as const }),
    logLevel: 'error',
    minifyWhitespace: true,
    minifySyntax: true,
    plugins: [ownImportMetaUrl],
  });
}
