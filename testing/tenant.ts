import { Type } from '@sinclair/typebox';
import type { FixtureManifest } from '../fixtures/seed/model.js';
import type { Coverage } from '../mock/coverage/schema.js';
import type { TenantControl, TokenRequest } from '../mock/control/tenant.js';
import { checkObject, expects, shown } from './check.js';
import { type ClientChecks, type ClientChecksOptions, clientChecksOf } from './client-checks.js';
import { filterRequests, type RecordedRequest, type RequestFilter } from './requests.js';
import { listen, type ListenOptions, type OpenListener, type WebhookListener } from './webhooks.js';
import { unusedPermissions } from '../spec/operations/index.js';

/** A tenant of a test mock (docs/DESIGN.md, "Testing API"): its own isolated world, credentials, clock, journal and webhooks. */
export interface TestTenant {
  readonly org: string;
  /** An access token (default: every permission and the `App.Admin` role, valid 24 hours). */
  token(request?: TokenRequest): Promise<string>;
  /**
   * A new API key of the tenant, its value for `X-Api-Key`; it acts with the permissions and roles of `as` (default:
   * the admin preset). Made without a request, so it is not in `requests()` or `coverage()`.
   */
  apiKey(name?: string, as?: TokenRequest): Promise<string>;
  /** Forgets the tenant's data (its next request seeds a fresh world); open listeners stay subscribed. */
  reset(): Promise<void>;
  readonly clock: {
    /** The tenant's virtual time, epoch milliseconds. */
    now(): number;
    /** Moves the clock forward and runs every webhook retry that falls due. */
    advance(seconds: number): Promise<void>;
  };
  /** The tenant's request journal, oldest first (the newest last), filtered. */
  requests(filter?: RequestFilter): RecordedRequest[];
  /** Which operations and documented status/code pairs the tenant's traffic exercised. */
  coverage(filter?: { readonly operations?: readonly string[] }): Coverage;
  /** The ids of the tenant's seeded data (a SKU reference, a deletable family, ...): `GET /__mock/fixtures`. */
  fixtures(): FixtureManifest;
  readonly webhooks: {
    /** A loopback receiver subscribed for the tenant that verifies every signature. */
    listen(options?: ListenOptions): Promise<WebhookListener>;
    /** The tenant's webhook signing secret, for a receiver of the client under test (`GET /__mock/webhook-secret`). */
    secret(): string;
  };
  readonly clientChecks: {
    /**
     * Starts (or restarts, forgetting what was observed) the checks of the client under test: the mock judges the
     * tenant's requests and the answers of the receivers it subscribed (docs/DESIGN.md, "Client certification").
     */
    start(options?: ClientChecksOptions): Promise<ClientChecks>;
  };
  /** The low-level control handle (mock/control/tenant.ts), for what this handle does not cover. */
  readonly control: TenantControl;
}

const TokenRequestSchema = Type.Partial(
  Type.Object(
    {
      sub: Type.String({ minLength: 1, ...expects('a non-empty subject') }),
      permissions: Type.Array(Type.String(), expects('an array of permission names')),
      roles: Type.Array(Type.String(), expects('an array of role names')),
      expiresIn: Type.Number(expects('a number of seconds (negative: already expired)')),
    },
    { additionalProperties: false },
  ),
);

const checkedRequest = (where: string, request: unknown): TokenRequest =>
  checkObject(TokenRequestSchema, request, { where, noun: 'field', meant: { permission: 'permissions' } });

/** What a tenant handle needs of its mock. */
interface TenantDeps {
  readonly control: TenantControl;
  readonly blockPrivateEndpoints: boolean;
  /** The mock's open listeners (every tenant's). */
  readonly listeners: Set<OpenListener>;
  /** Throws when the mock is closed. */
  readonly assertOpen: (what: string) => void;
}

/** The handle of one tenant over the mock's control API. */
export function testTenant({ control, blockPrivateEndpoints, listeners, assertOpen }: TenantDeps): TestTenant {
  return {
    org: control.org,
    token: async (request) => {
      const checked = checkedRequest('t.token', request);
      const unused = unusedPermissions(checked?.permissions ?? []);
      // The token is still minted (a test may want one), but a misspelt permission silently grants nothing.
      if (unused.length)
        process.emitWarning(`t.token: no operation requires the permission(s) ${unused.join(', ')}`, 'OpsapiWarning');
      return control.token(checked);
    },
    apiKey: async (name = 'test key', as) => {
      if (typeof name !== 'string' || name.length === 0)
        throw new TypeError(`t.apiKey: the name must be a non-empty string, got ${shown(name)}`);
      return control.createApiKey(name, checkedRequest('t.apiKey', as)).key;
    },
    reset: async () => {
      control.reset();
      // The reset dropped every subscription of the tenant: its open listeners subscribe again in the fresh world.
      for (const listener of listeners) if (listener.org === control.org) listener.resubscribe();
    },
    clock: { now: () => control.clock.now(), advance: async (seconds) => control.clock.advance(seconds) },
    requests: (filter) => filterRequests(control.requests(), filter),
    coverage: (filter) => control.coverage(filter),
    fixtures: () => control.fixtures(),
    webhooks: {
      listen: async (options) => {
        assertOpen('webhooks.listen');
        return listen(control, { blockPrivateEndpoints }, listeners, options);
      },
      secret: () => {
        assertOpen('webhooks.secret');
        return control.webhookSecret();
      },
    },
    clientChecks: clientChecksOf({ control, assertOpen }),
    control,
  };
}
