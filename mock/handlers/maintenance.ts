import type { Handler } from '../http/context.js';
import { listAnswer } from '../http/list-answer.js';

/** `GET /v1/maintenance/assets`. */
export const listAssets: Handler = (ctx) => listAnswer(ctx, ctx.tenant.assets);

export const maintenanceHandlers: Record<string, Handler> = { listAssets };
