/**
 * `opsapi/testing`: the mock for client developers' test suites (docs/DESIGN.md, "Testing API"). One mock per suite, a fresh
 * tenant per test, tokens and keys, the request journal and API coverage to assert on, webhooks to receive, and the
 * certification of the client under test (`t.clientChecks`, docs/DESIGN.md, "Client certification"):
 *
 * ```ts
 * import { startMock } from 'opsapi/testing';
 *
 * const mock = await startMock({ rateLimit: 'off' });
 * const t = mock.tenant();
 * const token = await t.token();
 * // ... the client under test calls mock.url with the token ...
 * expect(t.requests({ operationId: 'listSkus' })).toHaveLength(1);
 * await mock.close();
 * ```
 */
export { startMock, type TestMock } from './testing/mock.js';
export { StartMockOptionsSchema, type StartMockOptions } from './testing/options.js';
export type { TestTenant } from './testing/tenant.js';
export type { RecordedRequest, RequestFilter } from './testing/requests.js';
export type { ListenOptions, ListenerAnswer, NextOptions, WebhookListener } from './testing/webhooks.js';
export type { EventChoice } from './testing/events.js';
export type { WebhookDelivery } from './testing/delivery.js';
export type { AssertPassedOptions, ClientChecks, ClientChecksOptions } from './testing/client-checks.js';
export type { ClientReport } from './mock/client-checks/report.js';
export type { CheckResult, Evidence, Level, Outcome, Verdict } from './common/report/types.js';
export type { TokenRequest } from './mock/control/tenant.js';
export type { Coverage } from './mock/coverage/schema.js';
export type { Answer, Responder } from './common/receiver.js';
