import { entries, type CatalogEntry } from '../checks/catalog-reads.js';
import type { Probe } from './probe.js';

/**
 * Whose texts the error catalog carries (Endpoints / Get an error from the catalog: the entry's `title`,
 * `description` and `parameters` are documented fields; their texts are not given: "Conditions behind each code
 * beyond what its name says: not shown"). A sample of codes (those the reference pairs with a status, and a spread of
 * the others) is read and compared with the contract's entries; the entries' members are scanned.
 */

/** Codes read: the documented pairs, then every fortieth entry of the catalog. */
function sample(): CatalogEntry[] {
  const all = entries();
  const documented = all.filter((e) => e['x-status-provenance'] === 'documented');
  const spread = all.filter((_, i) => i % 40 === 0);
  return [...new Set([...documented, ...spread])];
}

const sameParameters = (a: unknown, b: CatalogEntry['parameters']) =>
  Array.isArray(a) &&
  a.length === b.length &&
  b.every((p, i) => {
    const q = a[i] as { key?: unknown; description?: unknown } | undefined;
    return q?.key === p.key && q.description === p.description;
  });

const catalog: Probe = {
  name: 'error catalog',
  kind: 'read',
  points: () => ['catalog-texts', 'record-fields:getError'],
  async run(p) {
    let compared = 0;
    for (const entry of sample()) {
      const ex = await p.send({ method: 'GET', path: `/v1/errors/${encodeURIComponent(entry.code)}` });
      const b = ex.json as { title?: unknown; description?: unknown; parameters?: unknown } | undefined;
      if (ex.status !== 200 || !b) continue;
      compared++;
      if (
        b.title !== entry.title ||
        b.description !== entry.description ||
        !sameParameters(b.parameters, entry.parameters)
      )
        return p.seen.record('catalog-texts', 'own', ex);
    }
    if (compared === 0) return p.seen.cannot('catalog-texts', 'no catalog entry was answered with 200');
    p.seen.record('catalog-texts', 'contract');
  },
};

export const CATALOG_PROBES: readonly Probe[] = [catalog];
