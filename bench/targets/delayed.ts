import { type Child, freePort, spawnChild } from '../children.js';
import { ROOT } from './index.js';

/** The delayed target (./delayed-server.ts) running in its own process. */
interface DelayedTarget {
  readonly url: string;
  readonly child: Child;
  stop(): Promise<void>;
}

/** Starts `bench/targets/delayed-server.ts`, answering every request after `delayMs`; resolves once it listens. */
export async function startDelayed(delayMs: number): Promise<DelayedTarget> {
  const port = await freePort();
  const child = spawnChild(
    'delayed',
    process.execPath,
    ['--import', 'tsx', 'bench/targets/delayed-server.ts', String(port), String(delayMs)],
    { cwd: ROOT },
  );
  try {
    const url = (await child.waitFor(/^(http:\/\/127\.0\.0\.1:\d+)\s*$/m, 30_000))[1];
    if (!url) throw new Error('delayed: no URL in its ready line');
    return { url, child, stop: () => child.stop(10_000) };
  } catch (error) {
    await child.stop();
    throw error;
  }
}
