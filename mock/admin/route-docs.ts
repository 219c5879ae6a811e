import type { TSchema } from '@sinclair/typebox';
import type { ErrorCode } from '../../spec/errors/index.js';
import {
  ClockReading,
  Coverage,
  Emission,
  Fixtures,
  Health,
  Journal,
  MintedToken,
  OpenApiDocument,
  ResetDone,
  Stats,
  WebhookSecret,
} from './responses.js';

/**
 * What the admin API's document says of each route beyond its request schemas (which it reads from the route
 * itself, ./admin-document.ts): names, prose, the success answer and the coded problems. Keyed by `METHOD url` as
 * Fastify knows the route (`:id` parameters). Inferred throughout: the reference does not know the admin API
 * (docs/DESIGN.md, "Admin API").
 */
export interface RouteDoc {
  readonly operationId: string;
  readonly tag: 'Mock' | 'Tenant';
  readonly summary: string;
  readonly description?: string;
  /** The success answer: its status and body (no schema: no body). */
  readonly success: { readonly status: number; readonly description: string; readonly schema?: TSchema };
  /** `optional`: the route reads credentials itself and works without them too (otherwise its hooks tell). */
  readonly auth?: 'optional';
  /** Coded problems the route answers besides validation (400) and authentication (401). */
  readonly codes?: readonly ErrorCode[];
}

const TENANT = "The caller's tenant is the one of its bearer token (or API key), as on `/v1`.";

export const ROUTE_DOCS: Readonly<Record<string, RouteDoc>> = {
  'GET /__mock/health': {
    operationId: 'mockHealth',
    tag: 'Mock',
    summary: 'Whether the mock is up',
    success: { status: 200, description: 'Up.', schema: Health },
  },
  'GET /__mock/openapi.json': {
    operationId: 'mockAdminDocument',
    tag: 'Mock',
    summary: 'This document',
    description:
      'The admin API as OpenAPI 3.1, built from the schemas its routes validate requests with; `servers` names the origin it was requested from.',
    success: { status: 200, description: 'The document.', schema: OpenApiDocument },
  },
  'GET /__mock/stats': {
    operationId: 'mockStats',
    tag: 'Mock',
    summary: 'Figures of the mock process',
    description:
      'Tenants in memory, stored notifications, pending deliveries, memory. `?gc=1` runs a full collection first when the mock runs under `node --expose-gc`, so `heapUsed` is the live heap.',
    success: { status: 200, description: 'The figures.', schema: Stats },
  },
  'POST /__mock/tokens': {
    operationId: 'mockMintToken',
    tag: 'Mock',
    summary: 'Mint an access token',
    description:
      "An HS256 JWT for any org, with the permissions and roles asked for (none by default), signed with the mock's `--jwt-secret`. No credentials needed: the mock is a test double.",
    success: { status: 201, description: 'The token.', schema: MintedToken },
  },
  'POST /__mock/reset': {
    operationId: 'mockReset',
    tag: 'Tenant',
    summary: "Reset the caller's tenant, or every tenant",
    description: `\`{"all": true}\` resets every tenant and needs no credentials; any other body resets the caller's tenant to its seeded world (data, journal, clock, rate-limit bucket). ${TENANT}`,
    auth: 'optional',
    success: { status: 200, description: 'Reset.', schema: ResetDone },
  },
  'GET /__mock/clock': {
    operationId: 'mockReadClock',
    tag: 'Tenant',
    summary: "Read the tenant's virtual clock",
    description: TENANT,
    success: { status: 200, description: 'The virtual time.', schema: ClockReading },
  },
  'POST /__mock/clock': {
    operationId: 'mockAdvanceClock',
    tag: 'Tenant',
    summary: "Advance the tenant's virtual clock",
    description: `Runs every webhook retry of the tenant that falls due, then answers the new time. Per tenant: one test's time travel never touches another's. ${TENANT}`,
    success: { status: 200, description: 'The new virtual time.', schema: ClockReading },
  },
  'GET /__mock/fixtures': {
    operationId: 'mockFixtures',
    tag: 'Tenant',
    summary: "Sample records of the tenant's world",
    description: `Identifiers to use in requests (a SKU with inspections, units, a location and lot, a deletable family, purchase order lines), in the conformance runner's \`--data\` format. ${TENANT}`,
    success: { status: 200, description: 'The sample records.', schema: Fixtures },
  },
  'GET /__mock/requests': {
    operationId: 'mockRequests',
    tag: 'Tenant',
    summary: "The tenant's request journal",
    description: `The tenant's most recent requests, oldest first (like WireMock's request log), credentials redacted. ${TENANT}`,
    success: { status: 200, description: 'The journal.', schema: Journal },
  },
  'DELETE /__mock/requests': {
    operationId: 'mockClearRequests',
    tag: 'Tenant',
    summary: "Clear the tenant's request journal",
    description: TENANT,
    success: { status: 204, description: 'Cleared.' },
  },
  'GET /__mock/coverage': {
    operationId: 'mockCoverage',
    tag: 'Tenant',
    summary: "What the tenant's traffic exercised",
    description: `Which operations of the contract, and which documented status/code pairs of each, the tenant's requests exercised (a gate for client test suites: \`opsapi coverage\`). ${TENANT}`,
    success: { status: 200, description: 'The coverage.', schema: Coverage },
  },
  'DELETE /__mock/api-keys/:id': {
    operationId: 'mockRevokeApiKey',
    tag: 'Tenant',
    summary: 'Revoke an API key',
    description: `The key record stays, inactive; requests carrying the key then get the plain 401. Idempotent; another tenant's key is not found. ${TENANT}`,
    success: { status: 204, description: 'Revoked.' },
    codes: ['COMMON.ENTITY.NOT_FOUND'],
  },
  'GET /__mock/webhook-secret': {
    operationId: 'mockWebhookSecret',
    tag: 'Tenant',
    summary: "The tenant's webhook signing secret",
    description: `The key of the HMAC-SHA256 \`X-HMAC-Signature\` of every notification sent for the tenant. ${TENANT}`,
    success: { status: 200, description: 'The secret.', schema: WebhookSecret },
  },
  'POST /__mock/events': {
    operationId: 'mockEmitEvent',
    tag: 'Tenant',
    summary: 'Emit a catalog event',
    description: `Like \`stripe trigger\`: one notification per subscription of the tenant to the event (and version, when given), delivered and retried as real ones. ${TENANT}`,
    success: { status: 202, description: 'Emitted.', schema: Emission },
    codes: ['NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND'],
  },
};
