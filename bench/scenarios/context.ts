import type { Settings } from '../config.js';
import { startBare, startOurs, startPrism, type Target, type TargetName } from '../targets/index.js';

/** The long-lived targets, started on first use and kept for the whole run (idle between their loads). */
export class TargetPool {
  private readonly started = new Map<TargetName, Promise<Target>>();

  constructor(private readonly profileDir: string | null) {}

  get(name: TargetName): Promise<Target> {
    let target = this.started.get(name);
    if (!target) {
      target =
        name === 'bare' ? startBare() : name === 'prism' ? startPrism() : startOurs({ profileDir: this.profileDir });
      this.started.set(name, target);
      // A failed start is retried on the next use.
      target.catch(() => this.started.delete(name));
    }
    return target;
  }

  async stopAll(): Promise<void> {
    const all = [...this.started.values()];
    this.started.clear();
    await Promise.all(all.map(async (p) => (await p.catch(() => null))?.stop()));
  }
}

/** What every scenario gets. */
export interface Context {
  settings: Settings;
  pool: TargetPool;
  profileDir: string | null;
  /** Whether the scenarios were named with `--scenarios`. */
  scenariosNamed: boolean;
  /** An older build of the kit to compare ours with (`--baseline-cli`), or null. */
  baselineCli: string | null;
  log(message: string): void;
}
