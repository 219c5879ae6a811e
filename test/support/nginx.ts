import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Where Debian's `nginx` package puts the binary: /usr/sbin, often not on an unprivileged user's PATH. */
const DEBIAN_NGINX = '/usr/sbin/nginx';

/** Whether `command` runs: `<command> -v` ends with status 0 (bounded). */
const runs = (command: string): boolean => spawnSync(command, ['-v'], { timeout: 10_000 }).status === 0;

/**
 * The `nginx` binary tests can start (`OPSAPI_NGINX`, else `nginx` on the PATH, else /usr/sbin/nginx). Where there is
 * none they skip with a printed reason, except under `CI=true`, where its absence is a failure (CI installs it: see
 * .ci/run).
 */
export function nginxAvailability(): { run: true; nginx: string } | { run: false; reason: string } {
  const candidates = [process.env.OPSAPI_NGINX ?? 'nginx', ...(existsSync(DEBIAN_NGINX) ? [DEBIAN_NGINX] : [])];
  const nginx = candidates.find(runs);
  if (nginx !== undefined) return { run: true, nginx };
  const reason = 'nginx is not installed (apt-get install -y nginx); the README nginx test is skipped';
  if (process.env.CI === 'true') throw new Error(`${reason}, but CI=true requires it`);
  console.warn(reason);
  return { run: false, reason };
}
