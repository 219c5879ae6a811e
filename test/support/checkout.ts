import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Copies what a commit of this working tree would hold into `dest`, as `actions/checkout` would check it out: the
 * tracked files and the new ones git does not ignore, as they are on disk (so uncommitted work is included), and
 * nothing ignored (no node_modules, no dist). Returns how many files were copied.
 */
export function copyCheckout(root: string, dest: string): number {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(root, file)));
  for (const file of files) {
    mkdirSync(dirname(join(dest, file)), { recursive: true });
    // copyFileSync keeps the file mode (bin/opsapi.js stays executable).
    copyFileSync(join(root, file), join(dest, file));
  }
  return files.length;
}
