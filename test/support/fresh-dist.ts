import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import ts from 'typescript';
import { processAlive } from './process-alive.js';
import { runCommand } from './run-command.js';

/** A source of the build whose compiled file is missing or older than it. */
interface StaleSource {
  readonly source: string;
  readonly reason: 'missing' | 'older';
}

const mtime = (file: string): number | undefined => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
};

/** The sources `npm run build` compiles: what tsconfig.build.json selects, as TypeScript itself reads it. */
function buildSources(root: string): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.build.json'), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error('tsconfig.build.json could not be read');
  // Declaration files (spec/openapi.d.ts) compile to nothing.
  return parsed.fileNames.filter((file) => !file.endsWith('.d.ts')).map((file) => relative(root, file));
}

/**
 * The sources whose `dist/` file is missing or older than the source (a build without its record writes every output, so a
 * fresh dist/ has each file newer than its source). Empty: dist/ is what a build would write now.
 */
function staleSources(root: string): StaleSource[] {
  const stale: StaleSource[] = [];
  for (const source of buildSources(root)) {
    const built = mtime(join(root, 'dist', source.replace(/\.ts$/, '.js')));
    if (built === undefined) stale.push({ source, reason: 'missing' });
    else if (built < (mtime(join(root, source)) ?? Number.POSITIVE_INFINITY)) stale.push({ source, reason: 'older' });
  }
  return stale;
}

const readFileSafe = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

/** Takes the build lock (a folder: creating it is atomic); false while another live process holds it. */
function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = Number(readFileSafe(join(lock, 'pid')));
    // A holder that died (killed mid-build) leaves its lock; one that is still writing its pid is given time.
    if (Number.isInteger(holder) && holder > 0 && !processAlive(holder)) rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

/** `npm run build`; throws with its output when it fails or outlives `timeoutMs`. */
async function build(root: string, timeoutMs: number): Promise<void> {
  const run = await runCommand('npm', ['run', 'build', '--silent'], { cwd: root, timeoutMs });
  if (run.code !== 0)
    throw new Error(
      `npm run build failed (${run.code ?? run.signal ?? run.error?.message})\n${run.stdout}\n${run.stderr}`,
    );
}

/**
 * Makes dist/ fresh: does nothing when it is (the usual case after `npm ci`, whose `prepare` builds it), else runs
 * `npm run build` once, under a lock, so two test files that find it stale at once do not both write dist/.
 * Returns whether it built. Bounded: rejects after `timeoutMs`.
 */
export async function ensureFreshDist(root: string, timeoutMs = 240_000): Promise<{ built: boolean }> {
  const lock = join(root, 'node_modules', '.cache', 'opsapi-dist-build.lock');
  mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  while (staleSources(root).length > 0) {
    if (Date.now() > deadline) throw new Error(`dist/ still stale after ${timeoutMs} ms (another build holds ${lock})`);
    if (!tryLock(lock)) {
      await sleep(250);
      continue;
    }
    try {
      // Another process may have finished a build between the check and the lock.
      const stale = staleSources(root);
      if (stale.length === 0) return { built: false };
      // The build is incremental (tsconfig.build.json): it re-emits only what changed since its record, so a missing
      // output, or a source touched without a change, would stay stale; without the record it rewrites everything.
      const record = join(root, 'dist', '.tsbuildinfo');
      if (stale.some((s) => s.reason === 'missing')) rmSync(record, { force: true });
      await build(root, Math.max(1000, deadline - Date.now()));
      if (staleSources(root).length > 0) {
        rmSync(record, { force: true });
        await build(root, Math.max(1000, deadline - Date.now()));
      }
      return { built: true };
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return { built: false };
}
