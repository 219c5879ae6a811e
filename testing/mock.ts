import { randomUUID } from 'node:crypto';
import { isLoopbackHost } from '../mock/shared-mode.js';
import { endpointGuardFor } from '../mock/webhooks/address.js';
import { systemErrorCode } from '../cli/preflight.js';
import { checkOrgName } from '../mock/auth/org.js';
import type { MockControl } from '../mock/control/control.js';
import { startMock as startMockServer, type RunningMock } from '../mock/server.js';
import { shown } from './check.js';
import { resolveOptions, type StartMockOptions } from './options.js';
import { testTenant, type TestTenant } from './tenant.js';
import type { OpenListener } from './webhooks.js';

/** A mock started for a test suite (docs/DESIGN.md, "Testing API"). */
export interface TestMock {
  /** `http://127.0.0.1:<port>`: the base URL to give the client under test. */
  readonly url: string;
  readonly port: number;
  /** A tenant handle; without an org, a fresh unique one, so each test gets an isolated world. */
  tenant(org?: string): TestTenant;
  /** Closes every listener still open, then the mock: no timer, socket or receiver is left. */
  close(): Promise<void>;
  /** The low-level control API (mock/control/control.ts): options, stats, `idle()`, tenants by org. */
  readonly control: MockControl;
}

/** A fresh organisation code (mock/auth/org.ts rule: 41 characters of letters, digits and `-`). */
const freshOrg = () => `test-${randomUUID()}`;

/** A failed bind, as an error naming the option to change (the error keeps its `code`, e.g. EADDRINUSE). */
function bindError(error: unknown, host: string, port: number): unknown {
  const code = systemErrorCode(error);
  const why: Record<string, string> = {
    EADDRINUSE: `option port ${port} is already in use on ${host}`,
    EACCES: `option port ${port} needs privileges to bind on ${host}`,
    EADDRNOTAVAIL: `option host '${host}' is not an address of this machine`,
    ENOTFOUND: `option host '${host}' does not resolve to an address`,
    EAI_AGAIN: `option host '${host}' does not resolve to an address`,
  };
  if (code === undefined || why[code] === undefined) return error;
  return Object.assign(new Error(`startMock: ${why[code]} (${code})`, { cause: error }), { code });
}

/**
 * Starts a mock in this process, on a free loopback port by default. The options are the `opsapi mock` flags in
 * camelCase (testing/options.ts), checked before anything is built or bound: a bad one throws, naming it. Mocks
 * share no state, so a suite may start several.
 */
export async function startMock(options?: StartMockOptions): Promise<TestMock> {
  const resolved = await resolveOptions(options);
  let server: RunningMock;
  try {
    server = await startMockServer(resolved);
  } catch (error) {
    throw bindError(error, resolved.host, resolved.port);
  }
  const listeners = new Set<OpenListener>();
  // The guard the mock delivers through refuses the kit's loopback receivers on a non-loopback host too, unless the
  // options allow them (mock/webhooks/address.ts): `webhooks.listen` then says so instead of waiting in vain.
  const guard = endpointGuardFor({ ...resolved, loopbackHost: isLoopbackHost(resolved.host) });
  const refusesLoopbackReceivers = guard?.refuses('127.0.0.1', '127.0.0.1') ?? false;
  let closing: Promise<void> | undefined;
  const assertOpen = (what: string) => {
    if (closing) throw new Error(`${what}: the mock is closed`);
  };
  return {
    url: server.url,
    port: Number(new URL(server.url).port),
    control: server.control,
    tenant: (org) => {
      assertOpen('mock.tenant');
      if (org !== undefined) {
        const checked = typeof org === 'string' ? checkOrgName(org) : { ok: false as const, error: 'not a string' };
        if (!checked.ok) throw new RangeError(`mock.tenant: the org ${shown(org)} is refused: ${checked.error}`);
      }
      return testTenant({
        control: server.control.tenant(org ?? freshOrg()),
        blockPrivateEndpoints: refusesLoopbackReceivers,
        listeners,
        assertOpen,
      });
    },
    close: () =>
      (closing ??= (async () => {
        // Receivers first: an attempt under way to one of them then ends at once instead of holding the mock's close.
        await Promise.all([...listeners].map((listener) => listener.close()));
        await server.close();
      })()),
  };
}
