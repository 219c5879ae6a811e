import type { Handler } from '../handlers/context.js';
import type { AppDecorator } from '../http/decorator.js';
import { withHandlerFaults } from './handlers.js';
import { withListFaults } from './lists.js';
import { problemFaultsHook } from './problems.js';
import type { FaultName } from './registry.js';
import { withWebhookFaults, type WebhookParts } from './webhook-signer.js';

/**
 * The planted faults of one mock as decorators of its parts, for the composition root (mock/server.ts) to wire:
 * the faithful parts go in, the faulty ones come out. Each decorator is the identity for faults not planted.
 */
interface PlantedFaults {
  /** The `onSend` hook that rewrites problem bodies, for the HTTP shell to add before any route. */
  readonly app: AppDecorator;
  /** Wraps the handlers of the operations that handler and list faults break. */
  handlers<H extends Readonly<Record<string, Handler>>>(handlers: H): H;
  /** Wraps the webhook signer or transport. */
  webhookParts(parts: WebhookParts): WebhookParts;
}

/** The decorators of `faults`; with no fault planted, every part is passed through untouched and no hook is added. */
export function plantFaults(faults: ReadonlySet<FaultName>): PlantedFaults {
  const problemHook = problemFaultsHook(faults);
  return {
    app: { onSend: problemHook ? [problemHook] : [] },
    handlers: (handlers) => withListFaults(withHandlerFaults(handlers, faults), faults),
    webhookParts: (parts) => withWebhookFaults(parts, faults),
  };
}
