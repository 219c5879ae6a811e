import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';

/**
 * The git revision of the checkout a build's entry point lies in (`git describe --always --dirty`), or null when it
 * lies in none. The bench records this for `--baseline-cli` instead of the file's path: a path names a folder on the
 * machine that ran the bench, which a reader of the committed results cannot follow.
 */
export function buildRevision(entryPoint: string): string | null {
  try {
    return execFileSync('git', ['describe', '--always', '--dirty'], {
      cwd: dirname(entryPoint),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}
