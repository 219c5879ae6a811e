import { operation, type OperationDef } from '../../spec/operations/index.js';
import type { Exchange } from '../wire/client.js';
import { problemOf } from '../contract/bodies.js';
import { Findings, where, type ExchangeRule } from './types.js';
import { expectedIn } from '../contract/decided.js';
import type { RuleEnv } from './types.js';

const MISSING_PERMISSIONS = 'COMMON.AUTH.MISSING_PERMISSIONS';

/** Authentication, point 4: the 403 carries COMMON.AUTH.MISSING_PERMISSIONS and a type naming it. */
export function judge403Code(ex: Exchange): Findings {
  const f = new Findings();
  const body = problemOf(ex);
  f.check(body?.code === MISSING_PERMISSIONS, `${where(ex)}: wrong code`, MISSING_PERMISSIONS, String(body?.code));
  f.check(
    typeof body?.type === 'string' && body.type.endsWith(`/errors/${MISSING_PERMISSIONS}`),
    `${where(ex)}: type does not name the code`,
    `…/errors/${MISSING_PERMISSIONS}`,
    String(body?.type),
  );
  return f;
}

/** Authentication, point 4: the 403 detail names the missing permission. */
export function judge403NamesPermission(ex: Exchange, permission: string): Findings {
  const f = new Findings();
  const body = problemOf(ex);
  f.check(
    typeof body?.detail === 'string' && body.detail.includes(permission),
    `${where(ex)}: detail does not name ${permission}`,
    `detail containing ${permission}`,
    String(body?.detail),
  );
  return f;
}

function guarded(ex: Exchange, provenance: OperationDef['provenance']): boolean {
  if (ex.status !== 403 || ex.operationId === undefined) return false;
  const op = operation(ex.operationId);
  return op.permission.name !== null && op.permission.provenance === provenance;
}

function twins(id: string, title: string, judge: (ex: Exchange, permission: string) => Findings): ExchangeRule[] {
  return (['documented', 'inferred'] as const).map((provenance) => ({
    id: provenance === 'documented' ? id : `${id}.inferred`,
    title: provenance === 'documented' ? title : `${title} (operations whose permission is inferred)`,
    family: 'permissions' as const,
    clause: 'Authentication, point 4; Errors / Status and code pairs (403)',
    level: provenance === 'documented' ? ('MUST' as const) : ('SHOULD' as const),
    applies: (ex: Exchange) => guarded(ex, provenance),
    judge: (ex: Exchange, env: RuleEnv) => {
      const op = operation(ex.operationId as string);
      const name = op.permission.name as string;
      // An inferred permission name, or the one the deployment was observed to name (`permission:<op>`).
      const permission =
        provenance === 'documented' ? name : expectedIn<'permission'>(env, `permission:${op.operationId}`, name);
      return permission === 'none' ? [] : judge(ex, permission).list;
    },
  }));
}

/** The 403 rules, judged on every 403 of a permission-guarded operation. */
export const PERMISSION_RULES: ExchangeRule[] = [
  ...twins('permissions.403-code', 'The 403 carries COMMON.AUTH.MISSING_PERMISSIONS', (ex) => judge403Code(ex)),
  ...twins('permissions.403-names-permission', 'The 403 detail names the missing permission', judge403NamesPermission),
];
