import type { Decisions } from '../../spec/decisions/index.js';
import { operation } from '../../spec/operations/index.js';
import { systemClock, type Clock } from '../clock.js';
import type { Handler } from '../handlers/context.js';
import type { AppDecorator, PayloadHook, RequestHook } from '../http/decorator.js';
import type { NullOrder, TextCase } from '../lists/engine-options.js';
import { adoptedOf, adoptedRule } from './adopted.js';
import { bearerOnlyHooks } from './credentials.js';
import { sortableField, withAdoptedHandlers } from './handlers.js';
import { keyReachHooks } from './key-reach.js';
import { codeStatusHook, plain401TypeHook, problemMediaTypeHook } from './problems.js';
import { retryDelayHook } from './retry-delay.js';

export { notAdopted } from './not-adopted.js';

/**
 * The decisions a real deployment was observed to make (`opsapi learn`, spec/decisions/), as decorators of the
 * faithful mock's parts for the composition root (mock/server.ts) to wire, like the planted faults (mock/faults/).
 * Where a decision equals the contract's inference, nothing is decorated for it; what the mock cannot take on is
 * listed by `notAdopted` (not-adopted.ts).
 */
interface AdoptedDecisions {
  /** `onRequest` and `onSend` hooks for the HTTP shell to add before any route (statuses, problems, credentials). */
  readonly app: AppDecorator;
  /** Wraps the handlers of the operations whose success status, default order or sort fields were adopted. */
  handlers<H extends Readonly<Record<string, Handler>>>(handlers: H): H;
  /** The mock options the decisions set: the list engine's text case, Equals case and null order. */
  readonly options: { readonly textCase?: TextCase; readonly equalsCase?: TextCase; readonly nullOrder?: NullOrder };
}

/** The adopted default orders a list of the mock can follow (a field it sorts by), as its own field names. */
function followable(orders: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [operationId, order] of orders) {
    const field = order === 'none' ? undefined : sortableField(operation(operationId), order);
    if (field) out.set(operationId, `${order.startsWith('-') ? '-' : ''}${field}`);
  }
  return out;
}

/** The decorators of `decisions` (observed values by point id); `clock` dates a retry delay told as an instant. */
export function adoptDecisions(decisions: Decisions, clock: Clock = systemClock): AdoptedDecisions {
  const onRequest: RequestHook[] = [
    ...keyReachHooks(adoptedRule(decisions, 'api-key-alone'), adoptedRule(decisions, 'key-repeating-bearer')),
  ];
  const onSend: PayloadHook[] = [];
  const credentials = bearerOnlyHooks(adoptedRule(decisions, 'other-api-key-with-bearer'));
  if (credentials) {
    onRequest.push(credentials.onRequest);
    onSend.push(credentials.onSend);
  }
  // The problem hooks that tell a problem by its media type run before the one that changes it.
  for (const hook of [
    codeStatusHook(adoptedOf(decisions, 'code-status')),
    retryDelayHook(adoptedRule(decisions, 'retry-delay'), clock),
    plain401TypeHook(adoptedRule(decisions, 'problem-401-type')),
    problemMediaTypeHook(adoptedRule(decisions, 'problem-media-type')),
  ])
    if (hook) onSend.push(hook);
  const adopted = {
    successStatuses: adoptedOf(decisions, 'success-status'),
    defaultOrders: followable(adoptedOf(decisions, 'default-order')),
    ignoreUnknownSort: adoptedRule(decisions, 'unknown-sort-field') === 'ignored',
  };
  // Recorded, they win over the options given beside them, even when they are the inferred value.
  const textCase = decisions.get('text-case') as TextCase | undefined;
  const equalsCase = decisions.get('equals-case') as TextCase | undefined;
  const nullOrder = decisions.get('null-order') as NullOrder | undefined;
  return {
    app: { onRequest, onSend },
    handlers: (handlers) => withAdoptedHandlers(handlers, adopted),
    options: {
      ...(textCase ? { textCase } : {}),
      ...(equalsCase ? { equalsCase } : {}),
      ...(nullOrder ? { nullOrder } : {}),
    },
  };
}
