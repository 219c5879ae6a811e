/**
 * opsapi as a library: the contract, the mock server, the receiver helpers and the conformance runner.
 */
export { buildDocument, CONTRACT_VERSION } from './spec/build.js';
export { ContractValidator } from './spec/validate.js';
export { OPERATIONS } from './spec/operations/index.js';
export { ERROR_CATALOG, catalogEntry } from './spec/errors/index.js';
export { EVENT_CATALOG } from './fixtures/events.js';
export { startMock, buildMock, type RunningMock, type Mock } from './mock/server.js';
export { defaultOptions, type MockOptions } from './mock/options.js';
export { sign, verifySignature, SIGNATURE_HEADER, EVENT_ID_HEADER } from './mock/webhooks/signature.js';
export { runConformance } from './conformance/runner.js';
export { NoCredentialError, TargetUnreachableError, UsageError } from './conformance/errors.js';
