import { currentClock } from './check-clock.js';

/**
 * Work several checks of a run share, by key: the first caller starts it, later callers get its promise; their wait
 * for work another check started is not their own time (check-clock.ts). With `forgetFailures`, work that rejects is
 * dropped, so the next caller starts it again (a read that got no answer); otherwise its rejection is shared too.
 */
export function sharedWork(forgetFailures: boolean): <T>(key: string, start: () => Promise<T>) => Promise<T> {
  const work = new Map<string, Promise<unknown>>();
  return <T>(key: string, start: () => Promise<T>): Promise<T> => {
    const known = work.get(key) as Promise<T> | undefined;
    if (known) return currentClock()?.waitFor(known) ?? known;
    const started = start();
    work.set(key, started);
    if (forgetFailures) started.catch(() => work.delete(key));
    return started;
  };
}
