import { BAD_KINDS } from './bad-kinds.js';
import { pick, type KindDef } from './kind-def.js';
import { READ_KINDS } from './read-kinds.js';
import type { Traffic } from './sender.js';
import type { SoakTenant } from './tenant.js';
import { WEBHOOK_KINDS } from './webhook-kinds.js';
import { WRITE_KINDS } from './write-kinds.js';

export { REQUEST_TIMEOUT_MS, Traffic, type Group } from './sender.js';
export { setUpTenant } from './tenant.js';

/** The mix: reads about half, writes a quarter, bad requests and webhook traffic the rest. */
const KINDS: Record<string, KindDef> = { ...READ_KINDS, ...WRITE_KINDS, ...BAD_KINDS, ...WEBHOOK_KINDS };

const TOTAL_WEIGHT = Object.values(KINDS).reduce((s, k) => s + k.weight, 0);

/** A kind drawn by weight. */
function drawKind(): KindDef {
  let r = Math.random() * TOTAL_WEIGHT;
  for (const kind of Object.values(KINDS)) {
    r -= kind.weight;
    if (r < 0) return kind;
  }
  return Object.values(KINDS)[0]!;
}

/** Runs `workers` loops of random kinds over the tenants until `until()` says stop. */
export async function runWorkers(
  traffic: Traffic,
  tenants: readonly SoakTenant[],
  workers: number,
  until: () => boolean,
): Promise<void> {
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (!until()) await drawKind().run(traffic, pick(tenants));
    }),
  );
}
