/**
 * opsapi as a library: the contract, the mock server, the receiver helpers and the conformance runner. `startMock` is
 * the Testing API's (also `opsapi/testing`: checked options named like the CLI flags, tenant handles, webhook
 * listeners); `startMockServer` and `buildMock` are the low-level mock, configured with resolved `MockOptions`.
 */
export { buildDocument, CONTRACT_VERSION } from './spec/build.js';
export { ContractValidator } from './spec/validate.js';
export { OPERATIONS } from './spec/operations/index.js';
export { ERROR_CATALOG, catalogEntry } from './spec/errors/index.js';
export { EVENT_CATALOG } from './spec/events/catalog.js';
export * from './testing.js';
export { startMock as startMockServer, buildMock, type RunningMock, type Mock } from './mock/server.js';
export type { MockControl, MockStats, TenantControl, TenantClock, TenantView, TokenRequest } from './mock/server.js';
export { defaultOptions, DEFAULT_JWT_SECRET, DEFAULT_ORG, type MockOptions } from './mock/options.js';
export { SharedModeError } from './mock/shared-mode.js';
export {
  DECISION_FORMAT,
  parseDecisionFile,
  type DecisionFile,
  type RecordedDecision,
} from './spec/decisions/index.js';
export { learnDecisions } from './conformance/learn/learn.js';
export { mintToken, type TokenClaims } from './mock/auth/tokens.js';
export { adminClaims, limitedClaims, ALL_PERMISSIONS } from './mock/auth/presets.js';
export { DataManifest, PartialDataManifest, parsePartialDataManifest } from './common/data-manifest.js';
export { sign, verifySignature, SIGNATURE_HEADER, EVENT_ID_HEADER } from './common/signature.js';
export { FAULTS, type FaultName } from './mock/faults/registry.js';
export { runConformance } from './conformance/orchestration/runner.js';
export {
  CredentialRefusedError,
  NoCredentialError,
  TargetUnreachableError,
  UsageError,
} from './conformance/errors.js';
export {
  startForwardingProxy,
  type CapturedExchange,
  type ForwardingProxyOptions,
  type InterceptedAnswer,
  type InterceptedRequest,
  type Interceptor,
  type RunningForwarder,
} from './conformance/proxy/forward.js';
