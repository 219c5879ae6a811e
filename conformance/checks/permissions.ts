import type { OperationDef } from '../../spec/operations/index.js';
import type { Exchange } from '../wire/client.js';
import { byProvenance, label, operations, probePath } from '../contract/contract.js';
import type { CheckContext, CheckDef } from '../context.js';
import { judge403Code, judge403NamesPermission } from '../rules/permissions.js';
import type { Level } from '../types.js';
import { expected } from '../contract/decided.js';

interface ForbiddenAnswer {
  op: OperationDef;
  permission: string;
  ex: Exchange;
}

/**
 * Every permission-guarded operation called with a token lacking its permission: on a mock, a token holding every
 * other permission of the contract; elsewhere the `--limited-token`. Memoised: the 403 checks share it.
 */
function forbiddenAnswers(c: CheckContext): Promise<(ForbiddenAnswer | { op: OperationDef; reason: string })[]> {
  return c.run.memo('permissions:403', async () =>
    Promise.all(
      operations()
        .filter((op) => op.permission.name !== null)
        .map(async (op) => {
          // The permission the contract infers for an operation, or the one the deployment was observed to name
          // (`permission:<op>` of --decisions; `none`: it guards the operation with no permission).
          const permission =
            op.permission.provenance === 'documented'
              ? (op.permission.name as string)
              : expected<'permission'>(c.run, `permission:${op.operationId}`, op.permission.name as string);
          if (permission === 'none') return { op, reason: `${label(op)} was observed to need no permission` };
          const token = (await c.run.credentials.without?.(permission)) ?? c.run.credentials.limited;
          if (!token) return { op, reason: 'no token lacking a permission (pass --limited-token)' };
          const ex = await c.run.client.send('shared', {
            method: op.method.toUpperCase() as 'GET',
            path: probePath(op),
            auth: { bearer: token },
            ...(op.requestBody ? { json: {} } : {}),
          });
          if (ex.status < 300 || (ex.status === 400 && !c.run.credentials.without)) {
            return {
              op,
              reason: `${label(op)} answered ${ex.status} to the limited token: it seems to hold ${permission}`,
            };
          }
          return { op, permission, ex };
        }),
    ),
  );
}

function permissionCheck(
  id: string,
  title: string,
  level: Level,
  ops: OperationDef[],
  test: (c: CheckContext, a: ForbiddenAnswer) => void,
): CheckDef {
  const ids = new Set(ops.map((op) => op.operationId));
  return {
    id,
    title,
    family: 'permissions',
    clause: 'Authentication, point 4; Errors / Status and code pairs (403)',
    level,
    requires: ['limitedToken'],
    async run(c) {
      for (const a of await forbiddenAnswers(c)) {
        if (!ids.has(a.op.operationId)) continue;
        if ('reason' in a) {
          c.cannot(a.reason);
          continue;
        }
        test(c, a);
      }
    },
  };
}

function twins(base: string, title: string, test: (c: CheckContext, a: ForbiddenAnswer) => void): CheckDef[] {
  const guarded = operations().filter((op) => op.permission.name !== null);
  const { documented, inferred } = byProvenance(guarded, (op) => op.permission);
  const out: CheckDef[] = [];
  if (documented.length) out.push(permissionCheck(base, title, 'MUST', documented, test));
  if (inferred.length)
    out.push(
      permissionCheck(
        `${base}.inferred`,
        `${title} (operations whose permission is inferred)`,
        'SHOULD',
        inferred,
        test,
      ),
    );
  return out;
}

export function permissionChecks(): CheckDef[] {
  return [
    ...twins('permissions.403-status', 'A caller lacking the permission of an operation gets 403', (c, a) => {
      c.exercised(label(a.op));
      c.expect(a.ex.status === 403, `${label(a.op)} without ${a.permission}`, a.ex, '403', String(a.ex.status));
    }),
    ...twins('permissions.403-code', 'The 403 carries COMMON.AUTH.MISSING_PERMISSIONS', (c, a) => {
      if (a.ex.status !== 403) return c.cannot(`${label(a.op)} answered ${a.ex.status}, not 403`);
      c.exercised(label(a.op));
      c.findings(judge403Code(a.ex).list, a.ex);
    }),
    ...twins('permissions.403-names-permission', 'The 403 detail names the missing permission', (c, a) => {
      if (a.ex.status !== 403) return c.cannot(`${label(a.op)} answered ${a.ex.status}, not 403`);
      c.exercised(label(a.op));
      c.findings(judge403NamesPermission(a.ex, a.permission).list, a.ex);
    }),
  ];
}
