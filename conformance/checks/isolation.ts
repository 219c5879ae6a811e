import type { OperationDef } from '../../spec/operations/index.js';
import { fillPath, filterableFields, label, listOperations, operations } from '../contract.js';
import type { CheckContext, CheckDef } from '../context.js';
import { expectProblem, identity, listSpec, pageOf, pathValues, readList } from '../helpers.js';

/** Operations addressing records of a tenant by identifier (not the shared error catalog, not business references). */
function addressing(op: OperationDef): boolean {
  return op.pathParams.length > 0 && op.tag !== 'Errors' && !op.pathParams.every((p) => p.name.endsWith('Reference'));
}

/** A valid body for an operation, so only the tenant can make it fail. */
function bodyFor(op: OperationDef, c: CheckContext): unknown {
  switch (op.requestBody?.schema) {
    case 'InspectionUpdateBody':
      return { name: 'opsapi conform isolation', isMandatory: false };
    case 'PurchaseOrderLineUpdateBody':
      return { comment: 'opsapi conform isolation' };
    case 'StockUpdateBody':
      return { locationReference: c.run.data.sku?.locationReference ?? 'X', stock: 1 };
    case undefined:
      return undefined;
    default:
      return {};
  }
}

async function crossTenant(c: CheckContext, writes: boolean): Promise<void> {
  const other = c.run.credentials.other as string;
  for (const op of operations().filter((o) => addressing(o) && (o.method === 'get') !== writes)) {
    const values = await pathValues(c, op);
    if (typeof values === 'string') {
      c.cannot(values);
      continue;
    }
    const path = fillPath(op, values);
    const body = bodyFor(op, c);
    const ex = await c.send({
      method: op.method.toUpperCase() as 'GET',
      path,
      auth: { bearer: other },
      ...(body !== undefined ? { json: body } : {}),
    });
    c.exercised(label(op));
    if (ex.status >= 200 && ex.status < 300)
      c.fail(
        `${op.method.toUpperCase()} ${path} of tenant A succeeded from tenant B`,
        ex,
        '404 COMMON.ENTITY.NOT_FOUND',
        String(ex.status),
      );
    else
      expectProblem(
        c,
        ex,
        404,
        'COMMON.ENTITY.NOT_FOUND',
        `${op.method.toUpperCase()} ${path} of tenant A from tenant B`,
      );
  }
}

const base = {
  family: 'isolation' as const,
  clause: 'Authentication (the org of the credentials selects the tenant); Errors / Status and code pairs (404)',
  level: 'MUST' as const,
};

export function isolationChecks(): CheckDef[] {
  return [
    {
      ...base,
      id: 'isolation.lists',
      title: 'No list of tenant B shows an item of tenant A, even when filtered by its id',
      requires: ['otherTenant'],
      async run(c) {
        const other = c.run.credentials.other as string;
        await Promise.all(
          listOperations()
            .filter((op) => op.pathParams.length === 0)
            .map(async (op) => {
              const data = await readList(c, op);
              if (typeof data === 'string') return c.cannot(data);
              const ids = new Set(data.items.filter((i) => typeof i.id === 'string').map(identity));
              if (ids.size === 0) return c.cannot(`${label(op)}: no item with an id in tenant A`);
              const ex = await c.send(listSpec(op, op.path, { pageSize: 1000 }, { bearer: other }));
              const page = pageOf(ex);
              if (
                !c.expect(
                  ex.status === 200 && page !== undefined,
                  `${label(op)} from tenant B`,
                  ex,
                  '200 with a page',
                  String(ex.status),
                ) ||
                !page
              )
                return;
              c.exercised(label(op));
              const leaked = page.results.map(identity).filter((id) => ids.has(id));
              c.expect(
                leaked.length === 0,
                `${label(op)}: tenant B sees items of tenant A`,
                ex,
                'no item of tenant A',
                leaked.slice(0, 5).join(', '),
              );
              if (filterableFields(op).some((f) => f.name === 'id')) {
                const first = [...ids][0] as string;
                const byId = await c.send(listSpec(op, op.path, { filterBy: `id[Equals]${first}` }, { bearer: other }));
                const p = pageOf(byId);
                c.expect(
                  byId.status === 200 && p?.totalCount === 0,
                  `${label(op)} filterBy=id[Equals]<id of tenant A> from tenant B`,
                  byId,
                  '0 items',
                  p ? String(p.totalCount) : String(byId.status),
                );
              }
            }),
        );
      },
    },
    {
      ...base,
      id: 'isolation.reads',
      title: 'Reading a record of tenant A by id from tenant B gives 404',
      requires: ['otherTenant'],
      run: (c) => crossTenant(c, false),
    },
    {
      ...base,
      id: 'isolation.writes',
      title: 'Changing a record of tenant A by id from tenant B gives 404',
      requires: ['otherTenant', 'writes'],
      run: (c) => crossTenant(c, true),
    },
  ];
}
