import type { OperationId } from '../../spec/operations/index.js';
import type { Handler } from './context.js';

/** One handler per operation of the contract, keyed by operationId: a missing one is a compile error. */
export type Handlers = { readonly [K in OperationId]: Handler };

/**
 * The handlers of one domain, a part of `Handlers`. Domain tables use it with `satisfies`, so a misspelt
 * operationId is an excess-property error where it is written and the table keeps its exact keys.
 */
export type DomainHandlers = Partial<Handlers>;
