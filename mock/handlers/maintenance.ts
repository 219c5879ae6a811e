import type { Handler } from './context.js';
import { listAnswer } from './list-answer.js';
import type { DomainHandlers } from './types.js';

/** `GET /v1/maintenance/assets`. */
const listAssets: Handler = (ctx) => listAnswer(ctx, ctx.tenant.assets);

export const maintenanceHandlers = { listAssets } satisfies DomainHandlers;
