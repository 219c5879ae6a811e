import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { StateFileError } from '../store/records.js';

/**
 * The webhook key of a mock kept with `--state FILE`, in `FILE.webhook-key` beside the snapshot and its journal
 * (docs/DESIGN.md, "Shared sandbox"): a shared mock's random key made at its first start is read back
 * at every next one, so receivers keep their tenants' signing secrets across restarts. A file of its own, readable by
 * its owner only (mode 0600): the snapshot and the journal hold no secret, and a key is written once, never rewritten.
 */
export function keptWebhookKey(stateFile: string, fresh: () => string, minLength: number): string {
  const path = `${stateFile}.webhook-key`;
  const read = (): string => {
    const key = readFileSync(path, 'utf8').trim();
    if (key.length < minLength)
      throw new StateFileError(
        `${path} holds no webhook key of ${minLength}+ characters; remove it to make a new one (every tenant's webhook secret changes) or pass --webhook-key`,
      );
    return key;
  };
  let fd: number;
  try {
    // Created only if absent ('wx'): two starts at once both end with the key the first one wrote.
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return read();
    throw new StateFileError(`cannot keep the webhook key in ${path}: ${(error as Error).message}`);
  }
  const key = fresh();
  try {
    writeSync(fd, `${key}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return key;
}
