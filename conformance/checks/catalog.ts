import { expected, expectedStatus, observedMembers } from '../contract/decided.js';
import type { CheckContext, CheckDef } from '../context.js';
import { problemOf } from '../helpers.js';
import { entries, prefetchCatalog, readCatalog, type CatalogEntry } from './catalog-reads.js';

const answers = (c: CheckContext) => readCatalog(c.run);

type Body = { code?: unknown; title?: unknown; description?: unknown; parameters?: unknown; status?: unknown };

function sameParameters(a: unknown, b: CatalogEntry['parameters']): boolean {
  if (!Array.isArray(a) || a.length !== b.length) return false;
  return b.every((p, i) => {
    const q = a[i] as { key?: unknown; description?: unknown } | undefined;
    return q?.key === p.key && q.description === p.description;
  });
}

/** `parameters`: an array of objects, each with `key` and `description` strings (Resources / Error catalog entry). */
function wellFormedParameters(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every(
      (p) =>
        typeof p === 'object' &&
        p !== null &&
        typeof (p as { key?: unknown }).key === 'string' &&
        typeof (p as { description?: unknown }).description === 'string',
    )
  );
}

const CLAUSE = 'Endpoints / Get an error from the catalog; Errors / Error code catalog';

export function catalogChecks(): CheckDef[] {
  return [
    {
      id: 'catalog.entries',
      prefetch: prefetchCatalog,
      title: `Every one of the ${entries().length} codes answers 200 with its entry: code, title, description, parameters[] of {key, description}`,
      family: 'catalog',
      clause: CLAUSE,
      level: 'MUST',
      async run(c) {
        for (const { entry, ex } of await answers(c)) {
          c.exercised(entry.code);
          const b = ex.json as Body | undefined;
          if (
            !c.expect(
              ex.status === 200 && !!b,
              `GET /v1/errors/${entry.code}`,
              ex,
              '200 with the entry',
              String(ex.status),
            ) ||
            !b
          )
            continue;
          c.expect(b.code === entry.code, `${entry.code}: code`, ex, entry.code, String(b.code));
          // The documented shape (Resources / Error catalog entry): texts are never given by the reference, so only
          // their types are MUST; the contract's own texts are compared by catalog.entries-text (SHOULD).
          c.expect(
            typeof b.title === 'string' && typeof b.description === 'string' && wellFormedParameters(b.parameters),
            `${entry.code}: title, description and parameters[] of {key, description}`,
            ex,
            'title and description strings, parameters an array of {key: string, description: string}',
            JSON.stringify({ title: b.title, description: b.description, parameters: b.parameters }).slice(0, 300),
          );
        }
      },
    },
    {
      id: 'catalog.entries-text',
      prefetch: prefetchCatalog,
      title: "Catalog titles, descriptions and parameter keys match the contract's texts (the reference gives none)",
      family: 'catalog',
      clause: `${CLAUSE} (conditions behind each code are not shown)`,
      level: 'SHOULD',
      async run(c) {
        for (const { entry, ex } of await answers(c)) {
          const b = ex.json as Body | undefined;
          if (ex.status !== 200 || !b) continue;
          c.exercised(entry.code);
          if (expected<'catalog-texts'>(c.run, 'catalog-texts', 'contract') === 'own') continue;
          c.expect(b.title === entry.title, `${entry.code}: title`, ex, entry.title, String(b.title));
          c.expect(
            b.description === entry.description,
            `${entry.code}: description`,
            ex,
            entry.description,
            String(b.description),
          );
          c.expect(
            sameParameters(b.parameters, entry.parameters),
            `${entry.code}: parameters`,
            ex,
            JSON.stringify(entry.parameters),
            JSON.stringify(b.parameters),
          );
        }
      },
    },
    {
      id: 'catalog.entry-status',
      prefetch: prefetchCatalog,
      title: 'Each catalog entry carries the HTTP status of its code',
      family: 'catalog',
      clause: `${CLAUSE} (the status of most codes is not shown)`,
      level: 'SHOULD',
      async run(c) {
        for (const { entry, ex } of await answers(c)) {
          const b = ex.json as Body | undefined;
          if (ex.status !== 200 || !b) continue;
          c.exercised(entry.code);
          const members = observedMembers(c.run, 'getError');
          if (members && !members.has('status')) continue;
          const status = expectedStatus(c.run, entry.code, entry.status);
          c.expect(b.status === status, `${entry.code}: status`, ex, String(entry.status), String(b.status));
        }
      },
    },
    {
      id: 'catalog.unknown-code-404',
      title: 'An unknown code answers 404 COMMON.ENTITY.NOT_FOUND',
      family: 'catalog',
      clause: 'Endpoints / Get an error from the catalog (404); Errors / Status and code pairs',
      level: 'MUST',
      async run(c) {
        for (const code of ['CONFORM.NO_SUCH.CODE', 'COMMON.NOT_A_REAL_CODE_X']) {
          const ex = await c.send({ method: 'GET', path: `/v1/errors/${code}` });
          c.exercised(code);
          const got = problemOf(ex)?.code;
          c.expect(
            ex.status === 404 && got === 'COMMON.ENTITY.NOT_FOUND',
            `GET /v1/errors/${code}`,
            ex,
            '404 COMMON.ENTITY.NOT_FOUND',
            `${ex.status} ${String(got)}`,
          );
        }
      },
    },
  ];
}
