import type { ProblemAnswer } from '../problems.js';
import type { HandlerContext } from './context.js';

/**
 * The per-tenant bounds the handlers enforce (`--max-subscriptions`, `--max-api-keys`; docs/DESIGN.md, "Shared
 * sandbox"): one tenant of a shared mock cannot grow its collections without end.
 */
export interface PlanLimits {
  readonly maxSubscriptions: number;
  readonly maxApiKeys: number;
}

/** A limit a create operation may hit: its name (the option that sets it) and the resource it counts. */
interface PlanLimit {
  readonly limit: 'max-subscriptions' | 'max-api-keys';
  readonly resource: 'Subscription' | 'ApiKey';
  readonly what: string;
  readonly maximum: number;
  readonly remedy: string;
}

/**
 * COMMON.TENANT.PLAN_LIMIT_EXCEEDED, the catalog's own code for a limit of the tenant (Pagination and limits: "Other
 * limits appear only as error codes (for example COMMON.TENANT.PLAN_LIMIT_EXCEEDED ...); their values are not given").
 * Its status is the catalog's inference (spec/errors/statuses.ts); `detail` and `parameters` name the limit, the
 * resource and the bound, so a client knows what to free.
 */
export function planLimitExceeded(ctx: HandlerContext, bound: PlanLimit): ProblemAnswer {
  return ctx.problem(
    'COMMON.TENANT.PLAN_LIMIT_EXCEEDED',
    `The organisation holds ${bound.maximum} ${bound.what}, the most it may hold (${bound.limit}); ${bound.remedy}`,
    { limit: bound.limit, resource: bound.resource, maximum: bound.maximum },
  );
}
