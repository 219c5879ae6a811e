import { call } from './http.js';

/** The part of `GET /__mock/stats` the bench reads. */
interface MockFigures {
  /** Tenants in memory. */
  tenants: number;
  /** V8's used heap of the mock process, MB (not collected first: the mock runs without --expose-gc). */
  heapUsedMb: number;
}

/** The mock's own figures, or null when `/__mock/stats` does not answer them (e.g. behind an admin key). */
export async function mockFigures(url: string): Promise<MockFigures | null> {
  try {
    const answer = await call('GET', `${url}/__mock/stats`);
    if (answer.status !== 200) return null;
    const stats = answer.json<{ tenants?: unknown; memory?: { heapUsed?: unknown } }>();
    const heapUsed = stats.memory?.heapUsed;
    if (typeof stats.tenants !== 'number' || typeof heapUsed !== 'number') return null;
    return { tenants: stats.tenants, heapUsedMb: heapUsed / 1024 / 1024 };
  } catch {
    return null;
  }
}
