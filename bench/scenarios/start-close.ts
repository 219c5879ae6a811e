import { startMock } from '../../testing.js';
import { call } from '../http.js';
import { median, percentileSorted, round } from '../stats.js';
import type { Outcome, ScenarioDef } from './types.js';

/** One cycle's times, ms. */
interface Cycle {
  startMs: number;
  firstAnswerMs: number;
  closeMs: number;
}

/**
 * One cycle as a client suite's `beforeAll`/test/`afterAll` runs it: `startMock()`, a token of a fresh tenant (minted
 * in process, not timed), one `GET /v1/items/skus` with it (the tenant's world is seeded by that first request),
 * `mock.close()`.
 */
async function cycle(): Promise<Cycle> {
  const t0 = performance.now();
  const mock = await startMock();
  const startMs = performance.now() - t0;
  try {
    const token = await mock.tenant().token();
    const t1 = performance.now();
    const answer = await call('GET', `${mock.url}/v1/items/skus?pageSize=1`, { token, timeoutMs: 30_000 });
    const firstAnswerMs = performance.now() - t1;
    if (answer.status !== 200)
      throw new Error(`the first list answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    const t2 = performance.now();
    await mock.close();
    return { startMs, firstAnswerMs, closeMs: performance.now() - t2 };
  } catch (error) {
    await mock.close();
    throw error;
  }
}

/** `<name>.medianMs` and `<name>.p90Ms` of some samples. */
const metricsOf = (name: string, samples: number[]) => ({
  [`${name}.medianMs`]: round(median(samples), 2),
  [`${name}.p90Ms`]: round(percentileSorted(Float64Array.from(samples).sort(), 90), 2),
});

export const startCloseScenario: ScenarioDef = {
  name: 'start-close',
  description:
    'startMock() of opsapi/testing in this process: start, first answer of one GET with a token, close; 20 cycles (--quick: 5)',
  async run(ctx): Promise<Outcome> {
    // The first cycle of a process is slower (one-time warm-up of the modules and the JIT; inferred from the numbers):
    // a suite pays it once, so it is reported apart.
    const cold = await cycle();
    const count = ctx.settings.startCloseCycles;
    const cycles: Cycle[] = [];
    for (let i = 0; i < count; i++) cycles.push(await cycle());
    const metrics: Record<string, number | null> = {
      cycles: count,
      'cold.startMs': round(cold.startMs, 2),
      'cold.firstAnswerMs': round(cold.firstAnswerMs, 2),
      'cold.closeMs': round(cold.closeMs, 2),
      ...metricsOf(
        'start',
        cycles.map((c) => c.startMs),
      ),
      ...metricsOf(
        'firstAnswer',
        cycles.map((c) => c.firstAnswerMs),
      ),
      ...metricsOf(
        'close',
        cycles.map((c) => c.closeMs),
      ),
    };
    ctx.log(
      `    median start ${metrics['start.medianMs']} ms, first answer ${metrics['firstAnswer.medianMs']} ms, close ${metrics['close.medianMs']} ms (cold start ${metrics['cold.startMs']} ms)`,
    );
    return {
      metrics,
      details: { cycles },
      notes: [
        `startMock() with default options (300 SKUs per tenant) in the bench process: median and p90 over ${count} cycles after one cold cycle (cold.*), the warm-up every process pays once.`,
        'firstAnswer is one GET /v1/items/skus?pageSize=1 of a fresh tenant, whose world that first request seeds (300 SKUs).',
      ],
    };
  },
};
