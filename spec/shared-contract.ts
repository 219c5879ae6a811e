import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { buildDocument } from './build.js';
import { ContractValidator } from './validate.js';

/** The contract document and its validator. */
interface SharedContract {
  readonly document: OpenAPIObject;
  readonly validator: ContractValidator;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

let shared: SharedContract | undefined;

/**
 * The contract, built once per process and shared by every mock and conformance run in it (inferred: the document is
 * pure, and the validator compiles each schema once on first use; building both per mock cost ~25 ms of every start,
 * and each mock compiled again the schemas the previous one had compiled). Frozen, so no user of it can change what
 * another one sees: a write throws.
 */
export function sharedContract(): SharedContract {
  if (!shared) {
    const document = deepFreeze(buildDocument());
    shared = { document, validator: new ContractValidator(document) };
  }
  return shared;
}
