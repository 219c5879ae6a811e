import type { Exchange, RequestSpec } from '../wire/client.js';
import { contract } from '../contract/contract.js';
import type { RunContext } from '../context.js';

/** An entry of the document's `x-error-catalog`. */
export interface CatalogEntry {
  code: string;
  title: string;
  description: string;
  parameters: { key: string; description: string }[];
  status: number;
  'x-text-provenance': 'documented' | 'inferred';
  'x-status-provenance': 'documented' | 'inferred';
}

export function entries(): CatalogEntry[] {
  return (contract().document['x-error-catalog'] as CatalogEntry[] | undefined) ?? [];
}

/** Whether an answer says the credential may not read the catalog at all (so another credential should). */
const refused = (ex: Exchange) => ex.status === 401 || ex.status === 403;

/**
 * One code of the catalog read from the target, as a shared read (`wire/shared-reads.ts`). The catalog is the
 * service's, not a tenant's (Errors / Error code catalog: one list of codes), while the rate limit is per tenant
 * (Limits): when the run holds a second tenant's credential, every other code is read with it, so each tenant's limit
 * pays for half of the catalog (inferred). A code that credential may not read (401, 403) is read with the main one.
 */
async function readCode(run: RunContext, entry: CatalogEntry, index: number): Promise<Exchange> {
  const spec: RequestSpec = { method: 'GET', path: `/v1/errors/${encodeURIComponent(entry.code)}` };
  if (run.credentials.other === undefined || index % 2 === 0) return run.read('shared', spec);
  const first = await run.read('shared', { ...spec, auth: 'other' });
  return refused(first) ? run.read('shared', spec) : first;
}

/** Every code of the catalog read from the target (memoised; the client bounds the concurrency). */
export function readCatalog(run: RunContext): Promise<{ entry: CatalogEntry; ex: Exchange }[]> {
  return run.memo('catalog:all', () =>
    Promise.all(entries().map(async (entry, i) => ({ entry, ex: await readCode(run, entry, i) }))),
  );
}

/**
 * Reads codes of the catalog while the state phase runs, a quarter of `--concurrency` at a time (at least one) so
 * its writes and webhooks keep their request slots, until `signal` ends the phase: the catalog does not depend on
 * what the state phase writes, and the tenant's rate limit refills while that phase waits for webhooks. The catalog
 * checks of the main phase then find those codes read (inferred).
 */
export async function prefetchCatalog(run: RunContext, signal: AbortSignal): Promise<void> {
  const all = entries();
  let next = 0;
  const lane = async () => {
    while (!signal.aborted && next < all.length) {
      const i = next++;
      await readCode(run, all[i] as CatalogEntry, i).catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.floor(run.options.concurrency / 4)) }, lane));
}
