import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cache = join(root, 'node_modules', '.cache');
const PREFIX = 'opsapi-build-';
/** Folders of builds no run used for this long are removed (no test run lasts an hour: one still running keeps its own). */
const UNUSED_MS = 60 * 60 * 1000;

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** The content of a file of this checkout (a path from its root), or a mark that it is not there. */
function contentHash(file: string): string {
  try {
    return sha256(readFileSync(join(root, file)));
  } catch {
    return 'missing';
  }
}

/** The key of a build: what it builds and how, and the content of every file it read. */
function keyOf(what: string, how: string, inputs: readonly string[]): string {
  const parts = [what, how, ...[...inputs].sort().map((file) => `${file}\0${contentHash(file)}`)];
  return sha256(parts.join('\n')).slice(0, 24);
}

/** Removes the builds (and the half-written ones of killed runs) no run used for UNUSED_MS. */
function removeUnused(): void {
  for (const name of readdirSync(cache)) {
    if (!name.startsWith(PREFIX) && !name.startsWith('opsapi-e2e-')) continue;
    const path = join(cache, name);
    try {
      const stat = statSync(path);
      if (stat.isDirectory() && Date.now() - stat.mtimeMs > UNUSED_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed by another run at the same moment.
    }
  }
}

/**
 * The folder holding the output of `build` (which writes into the folder it is given and returns the files, from this
 * checkout's root, that it read), built once per content. Why (inferred; measured on 2 cores): the e2e layer compiles
 * the CLI and two runners with esbuild at every run, ~2.5 s of CPU, though most runs follow no change to them.
 *
 * A build's folder is named by the key of what it read, recorded by the last build of `what`: when none of those files
 * changed, nothing else can change the output (a changed import changes the file that holds it). A folder is never
 * written once named, so runs that share this checkout at once may share it; a build writes into a temporary folder
 * that it then renames, and when two runs build the same key at once, the second keeps the first's folder.
 */
export async function cachedBuild(
  what: string,
  how: string,
  build: (outDir: string) => Promise<readonly string[]>,
): Promise<string> {
  mkdirSync(cache, { recursive: true });
  removeUnused();
  const record = join(cache, `${PREFIX}${sha256(what).slice(0, 12)}.json`);
  const recorded = existsSync(record)
    ? (JSON.parse(readFileSync(record, 'utf8')) as { inputs?: unknown }).inputs
    : undefined;
  if (Array.isArray(recorded) && recorded.every((file) => typeof file === 'string')) {
    const dir = join(cache, `${PREFIX}${keyOf(what, how, recorded)}`);
    if (existsSync(dir)) {
      // Marks it used (see removeUnused).
      const now = new Date();
      utimesSync(dir, now, now);
      return dir;
    }
  }
  const temporary = mkdtempSync(join(cache, `${PREFIX}tmp-`));
  const inputs = await build(temporary);
  const dir = join(cache, `${PREFIX}${keyOf(what, how, inputs)}`);
  try {
    renameSync(temporary, dir);
  } catch (error) {
    // Another run named the same build first: its folder is complete, this one is not needed.
    if (!existsSync(dir)) throw error;
    rmSync(temporary, { recursive: true, force: true });
  }
  const written = `${record}.${process.pid}`;
  writeFileSync(written, JSON.stringify({ inputs }));
  renameSync(written, record);
  return dir;
}
