import type { Handler } from '../http/context.js';
import { listAnswer } from '../http/list-answer.js';
import type { DomainHandlers } from './types.js';

/** `GET /v1/maintenance/assets`. */
export const listAssets: Handler = (ctx) => listAnswer(ctx, ctx.tenant.assets);

export const maintenanceHandlers = { listAssets } satisfies DomainHandlers;
