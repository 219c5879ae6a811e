import { holds } from '../../auth/principal.js';
import type { RequestStep } from '../exchange.js';

/** Authentication, point 4: a caller that lacks the operation's permission gets 403 MISSING_PERMISSIONS naming it. */
export const permission: RequestStep = (x, route) => {
  const name = route.op.permission.name;
  if (name === null || !x.principal || holds(x.principal, name)) return undefined;
  return x.problem('COMMON.AUTH.MISSING_PERMISSIONS', `The caller lacks the permission '${name}'.`, {
    permission: name,
  });
};
