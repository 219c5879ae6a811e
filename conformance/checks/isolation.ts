import type { OperationDef } from '../../spec/operations/index.js';
import { fillPath, filterableFields, label, listOperations, operations } from '../contract/contract.js';
import type { CheckContext, CheckDef } from '../context.js';
import { expectProblem } from '../helpers.js';
import { addressOf, readIds } from '../observe/tenant-records.js';
import type { Level } from '../types.js';

/**
 * Tenant isolation: with another tenant's token, tenant A's records do not exist. Reads and writes of them by id get
 * 404 COMMON.ENTITY.NOT_FOUND (Errors / Status and code pairs: "an addressed entity does not exist"), and no list shows
 * them. Documented operations are judged at MUST; the contract's own operations (those that "appear only in error
 * messages", inferred) by the `.inferred` twins at SHOULD.
 */

/** Operations addressing records of a tenant by identifier (not the shared error catalog, not business references). */
function addressing(op: OperationDef): boolean {
  return op.pathParams.length > 0 && op.tag !== 'Errors' && !op.pathParams.every((p) => p.name.endsWith('Reference'));
}

/** The operations of a level: documented ones for MUST, inferred ones for SHOULD. */
const ofLevel = (level: Level) => (op: OperationDef) => (op.provenance === 'documented') === (level === 'MUST');

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

/** The operations the cross-tenant checks of a level send. */
const crossTenantOps = (level: Level, writes: boolean) =>
  operations().filter((o) => addressing(o) && ofLevel(level)(o) && (o.method === 'get') !== writes);

async function crossTenant(c: CheckContext, level: Level, writes: boolean): Promise<void> {
  const other = c.run.credentials.other as string;
  for (const op of crossTenantOps(level, writes)) {
    const values = await addressOf(c, op);
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

/** Lists of tenant B, read in whichever form the target answers, hold no id of tenant A's items. */
async function lists(c: CheckContext, level: Level): Promise<void> {
  const other = { bearer: c.run.credentials.other as string };
  const ops = listOperations().filter((op) => op.pathParams.length === 0 && ofLevel(level)(op));
  await Promise.all(
    ops.map(async (op) => {
      const mine = await readIds(c, op, op.path, 'main');
      if (typeof mine === 'string') return c.cannot(mine);
      const ids = new Set(mine.ids);
      if (ids.size === 0) return c.cannot(`${label(op)}: no item with an id in tenant A`);
      const theirs = await readIds(c, op, op.path, other);
      // An error answered to tenant B shows it nothing; what it answers is judged by the other families.
      if (typeof theirs === 'string') return c.cannot(`${label(op)} from tenant B: ${theirs}`);
      c.exercised(label(op));
      const leaked = theirs.ids.filter((id) => ids.has(id));
      c.expect(
        leaked.length === 0,
        `${label(op)}: tenant B sees items of tenant A`,
        theirs.first,
        'no item of tenant A',
        leaked.slice(0, 5).join(', '),
      );
      // Filtering by id where the contract makes it filterable (which fields filter is not shown: a refusal is no leak).
      if (!filterableFields(op).some((f) => f.name === 'id')) return;
      const first = [...ids][0] as string;
      const byId = await readIds(c, op, op.path, other, `id[Equals]${first}`);
      if (typeof byId === 'string') return c.cannot(`${label(op)} filterBy=id[Equals]<id> from tenant B: ${byId}`);
      c.expect(
        !byId.ids.includes(first),
        `${label(op)} filterBy=id[Equals]<id of tenant A> from tenant B shows the item`,
        byId.first,
        'no item',
        first,
      );
    }),
  );
}

const base = {
  family: 'isolation' as const,
  clause: 'Authentication (the org of the credentials selects the tenant); Errors / Status and code pairs (404)',
};

/** The isolation checks of a level (a twin is left out when the contract has no operation for it). */
function checksOf(level: Level): CheckDef[] {
  const suffix = level === 'MUST' ? '' : '.inferred';
  const which = level === 'MUST' ? '' : ' (operations the contract infers)';
  const checks: CheckDef[] = [];
  if (listOperations().some((op) => op.pathParams.length === 0 && ofLevel(level)(op)))
    checks.push({
      ...base,
      level,
      id: `isolation.lists${suffix}`,
      title: `No list of tenant B shows an item of tenant A, even when filtered by its id${which}`,
      requires: ['otherTenant'],
      run: (c) => lists(c, level),
    });
  if (crossTenantOps(level, false).length > 0)
    checks.push({
      ...base,
      level,
      id: `isolation.reads${suffix}`,
      title: `Reading a record of tenant A by id from tenant B gives 404${which}`,
      requires: ['otherTenant'],
      run: (c) => crossTenant(c, level, false),
    });
  if (crossTenantOps(level, true).length > 0)
    checks.push({
      ...base,
      level,
      id: `isolation.writes${suffix}`,
      title: `Changing a record of tenant A by id from tenant B gives 404${which}`,
      requires: ['otherTenant', 'writes'],
      run: (c) => crossTenant(c, level, true),
    });
  return checks;
}

export function isolationChecks(): CheckDef[] {
  return [...checksOf('MUST'), ...checksOf('SHOULD')];
}
