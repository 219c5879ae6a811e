import type { Decisions } from '../../spec/decisions/index.js';
import { systemClock, type Clock } from '../clock.js';
import type { Handler } from '../http/context.js';
import type { AppDecorator, PayloadHook, RequestHook } from '../http/decorator.js';
import type { TextCase } from '../lists/index.js';
import { adoptedOf } from './adopted.js';
import { bearerOnlyHooks } from './credentials.js';
import { withAdoptedHandlers } from './handlers.js';
import { codeStatusHook } from './problems.js';
import { retryDelayHook } from './retry-delay.js';

export { retryDelayValue } from './retry-delay.js';

/**
 * The decisions a real deployment was observed to make (`opsapi learn`, spec/decisions/), as decorators of the
 * faithful mock's parts for the composition root (mock/server.ts) to wire, like the planted faults (mock/faults/).
 * Where a decision equals the contract's inference, nothing is decorated for it.
 */
export interface AdoptedDecisions {
  /** `onRequest` and `onSend` hooks for the HTTP shell to add before any route (code statuses, retry delay, credentials). */
  readonly app: AppDecorator;
  /** Wraps the handlers of the operations whose success status or default order was adopted. */
  handlers<H extends Readonly<Record<string, Handler>>>(handlers: H): H;
  /** The mock options the decisions set: the list engine's text case (point `text-case`). */
  readonly options: { readonly textCase?: TextCase; readonly equalsCase?: TextCase };
}

/** The decorators of `decisions` (observed values by point id); `clock` dates a retry delay told as an instant. */
export function adoptDecisions(decisions: Decisions, clock: Clock = systemClock): AdoptedDecisions {
  const onRequest: RequestHook[] = [];
  const onSend: PayloadHook[] = [];
  const credentials = bearerOnlyHooks(
    adoptedOf(decisions, 'other-api-key-with-bearer').get('other-api-key-with-bearer'),
  );
  if (credentials) {
    onRequest.push(credentials.onRequest);
    onSend.push(credentials.onSend);
  }
  const codeStatus = codeStatusHook(adoptedOf(decisions, 'code-status'));
  if (codeStatus) onSend.push(codeStatus);
  const retryDelay = retryDelayHook(adoptedOf(decisions, 'retry-delay').get('retry-delay'), clock);
  if (retryDelay) onSend.push(retryDelay);
  const successStatuses = adoptedOf(decisions, 'success-status');
  const defaultOrders = adoptedOf(decisions, 'default-order');
  // Recorded, it wins over a `textCase` option given beside it, even when it is the inferred value.
  const textCase = decisions.get('text-case') as TextCase | undefined;
  const equalsCase = decisions.get('equals-case') as TextCase | undefined;
  return {
    app: { onRequest, onSend },
    handlers: (handlers) => withAdoptedHandlers(handlers, successStatuses, defaultOrders),
    options: { ...(textCase ? { textCase } : {}), ...(equalsCase ? { equalsCase } : {}) },
  };
}
