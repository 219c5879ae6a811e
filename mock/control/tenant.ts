import type { FixtureManifest } from '../../fixtures/seed/model.js';
import { adminClaims } from '../auth/presets.js';
import { mintToken } from '../auth/tokens.js';
import type { MockServices } from '../http/services.js';
import type { JournalEntry } from '../store/journal.js';
import { viewOf, type TenantView } from './tenant-view.js';
import type { Coverage } from '../coverage/schema.js';
import { parseOperationList } from '../coverage/report.js';
import { coverageOf } from '../coverage/tenants.js';
import { CONTRACT_UNIVERSE } from '../coverage/universe.js';
import type { ApiKey } from '../../spec/schemas/access.js';
import type { Subscription } from '../../spec/schemas/notifications.js';
import { setupWrites } from './setup.js';
import { clientChecksControl, type ClientChecksControl } from './client-checks.js';

/** What a token carries besides its org; each field left out takes the admin preset's value (docs/DESIGN.md, "Testing API"). */
export interface TokenRequest {
  readonly sub?: string;
  readonly permissions?: readonly string[];
  readonly roles?: readonly string[];
  /** Seconds until it expires (negative: already expired); default 24 hours. */
  readonly expiresIn?: number;
}

/** A tenant's virtual clock. */
export interface TenantClock {
  /** The tenant's current time, epoch milliseconds. */
  now(): number;
  /** Moves the clock forward and runs every webhook attempt that falls due (0: only what is due now). */
  advance(seconds: number): Promise<void>;
}

/**
 * One tenant of the mock, as a test drives it without HTTP. Like the admin API's tenant-scoped calls, `clock`,
 * `requests`, `fixtures` and `webhookSecret` seed the tenant on first use; `token`, `reset` and `inspect` do not.
 */
export interface TenantControl {
  readonly org: string;
  /** An access token for the tenant, signed with the mock's JWT secret. */
  token(request?: TokenRequest): Promise<string>;
  /** Forgets the tenant (its next request seeds a fresh world) and gives it a full rate-limit bucket. */
  reset(): void;
  readonly clock: TenantClock;
  /** The request journal, oldest first, credentials redacted (what `GET /__mock/requests` answers). */
  requests(): JournalEntry[];
  /** The fixture manifest of the tenant's seeded world (what `GET /__mock/fixtures` answers). */
  fixtures(): FixtureManifest;
  /** The secret the tenant's webhook deliveries are signed with. */
  webhookSecret(): string;
  /** What the tenant holds now, without seeding it or moving it in the eviction order; undefined when not in memory. */
  inspect(): TenantView | undefined;
  /**
   * Which operations and declared status/code pairs the tenant's traffic exercised (what `GET /__mock/coverage`
   * answers), restricted to `operations` when given; an unknown operationId throws. Seeds nothing.
   */
  coverage(filter?: { readonly operations?: readonly string[] }): Coverage;
  /**
   * Set-up without a request (setup.ts: not journaled, not counted in coverage, no rate limit, no planted fault):
   * subscribes an endpoint to one event version; throws a RangeError on an endpoint or event the API would refuse.
   */
  subscribe(endpoint: string, eventName: string, eventVersion: number): Subscription;
  /** Deletes a subscription without a request; false when the tenant has none of that id. */
  unsubscribe(id: string): boolean;
  /** Creates an API key without a request, acting with the permissions and roles of `as` (default: the admin preset). */
  createApiKey(name: string, as?: TokenRequest): ApiKey;
  /** Client checks of the tenant (what `/__mock/client-checks` does): start, the report so far, stop. */
  readonly clientChecks: ClientChecksControl;
}

/** The control handle of one org. */
export function tenantControl(services: MockServices, org: string): TenantControl {
  const { store, engine, limiter, options } = services;
  const setup = setupWrites(store, org);
  return {
    org,
    token: (request = {}) => {
      const preset = adminClaims(org);
      const claims = {
        org,
        sub: request.sub ?? preset.sub,
        permissions: [...(request.permissions ?? preset.permissions ?? [])],
        roles: [...(request.roles ?? preset.roles ?? [])],
      };
      return mintToken(options.jwtSecret, claims, request.expiresIn);
    },
    reset: () => {
      // Like `POST /__mock/reset` for one tenant (admin/routes/reset.ts).
      store.reset(org);
      limiter?.forget(org);
    },
    clock: {
      now: () => store.tenant(org).clock.now(),
      advance: (seconds) => {
        // A programming error in a test, not a request: thrown, like an unknown operationId.
        if (!Number.isFinite(seconds) || seconds < 0)
          throw new RangeError(`advance needs a finite number of seconds >= 0, got ${seconds}`);
        return engine.advance(store.tenant(org), seconds);
      },
    },
    requests: () => store.tenant(org).journal.list(),
    fixtures: () => structuredClone(store.tenant(org).manifest),
    webhookSecret: () => store.tenant(org).webhookSecret,
    inspect: () => {
      const state = store.peek(org);
      return state ? viewOf(state) : undefined;
    },
    coverage: (filter = {}) => {
      const ids =
        filter.operations === undefined
          ? undefined
          : parseOperationList(
              filter.operations.join(','),
              CONTRACT_UNIVERSE.operations.map((op) => op.operationId),
            );
      // A programming error in a test, not a request: thrown, like a negative clock advance.
      if (ids && !ids.ok) throw new RangeError(`coverage: ${ids.error}`);
      return coverageOf(store.peek(org), ids?.value);
    },
    subscribe: setup.subscribe,
    unsubscribe: setup.unsubscribe,
    createApiKey: (name, as = {}) => {
      const preset = adminClaims(org);
      return setup.createApiKey(name, {
        subject: as.sub ?? preset.sub ?? `admin@${org}`,
        permissions: as.permissions ?? preset.permissions ?? [],
        roles: as.roles ?? preset.roles ?? [],
      });
    },
    clientChecks: clientChecksControl(services, org),
  };
}
