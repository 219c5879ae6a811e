import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';

/** The outcome of a check made before a command starts anything: fine, or one line saying why not. */
type Preflight = { ok: true } | { ok: false; error: string };

/** The code of a Node system error (`ENOENT`, `EADDRNOTAVAIL`, ...), if the value is one. */
export function systemErrorCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && /^E[A-Z_]+$/.test(code) ? code : undefined;
}

/** A system error as one line: its message without the stack or any line break. */
export function oneLine(error: unknown): string {
  return String((error as Error | null)?.message ?? error)
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

/**
 * Whether this machine can listen on `host:port`: binds it and frees it at once, so a name that does not resolve,
 * an address that is not this machine's (EADDRNOTAVAIL), a port in use or a privileged port is reported before
 * anything is built or written (inferred: a usage error, exit 2, like the other commands' bad flags).
 */
export function checkBindable(host: string, port: number): Promise<Preflight> {
  // RFC 6761 section 6.4: names under `.invalid` never resolve; say so without asking a DNS server.
  if (/\.invalid\.?$/i.test(host))
    return Promise.resolve({
      ok: false,
      error: `--host ${host} does not resolve to an address (.invalid names never do, RFC 6761)`,
    });
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      const code = systemErrorCode(error);
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_FAIL')
        done({ ok: false, error: `--host ${host} does not resolve to an address (${code})` });
      else if (code === 'EADDRNOTAVAIL')
        done({
          ok: false,
          error: `--host ${host} is not an address of this machine (EADDRNOTAVAIL); bind 127.0.0.1, 0.0.0.0 or one of its interfaces`,
        });
      else if (code === 'EADDRINUSE')
        done({ ok: false, error: `${host}:${port} is already in use; pick another --port` });
      else if (code === 'EACCES')
        done({ ok: false, error: `${host}:${port} needs privileges to bind (EACCES); pick a --port above 1023` });
      else done({ ok: false, error: `cannot listen on ${host}:${port}: ${oneLine(error)}` });
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => done({ ok: true })));
  });
}

/**
 * Whether a file can be written at `path` (created or replaced): its directory exists and is writable, and the path
 * is not a directory. Checked before anything starts, so a wrong path is one line, not a half-started command.
 */
export async function checkWritableFile(path: string, flagName: string): Promise<Preflight> {
  if (path.trim() === '') return { ok: false, error: `${flagName} needs a file name` };
  const full = resolve(path);
  const dir = dirname(full);
  const existing = await stat(full).catch(() => null);
  if (existing?.isDirectory()) return { ok: false, error: `${flagName} ${path} is a directory; name a file` };
  const parent = await stat(dir).catch(() => null);
  if (!parent) return { ok: false, error: `${flagName} ${path}: the directory ${dir} does not exist` };
  if (!parent.isDirectory()) return { ok: false, error: `${flagName} ${path}: ${dir} is not a directory` };
  try {
    await access(dir, constants.W_OK);
  } catch {
    return { ok: false, error: `${flagName} ${path}: the directory ${dir} is not writable` };
  }
  return { ok: true };
}
