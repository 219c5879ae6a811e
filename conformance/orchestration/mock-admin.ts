import { decodeJwt } from 'jose';
import { mockKeyRefusal } from '../../common/mock-keys.js';
import { parsePartialDataManifest } from '../../common/data-manifest.js';
import type { Exchange } from '../wire/client.js';
import { contractPermissions } from '../contract/contract.js';
import type { RunContext } from '../context.js';
import { UsageError } from '../errors.js';
import { mockAdminHeaders, nonce } from '../helpers.js';

/** The `org` claim of a JWT, read without verification (to mint more tokens of the same tenant on a mock). */
function orgOf(token: string): string | undefined {
  try {
    const { org } = decodeJwt(token);
    return typeof org === 'string' ? org : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A run cannot use an admin API that refuses its keys (or wants one), nor a team key that does not reach the run's org:
 * one line saying which (a usage error, exit 2).
 */
function refusedKey(run: RunContext, exchange: Exchange): void {
  const { adminKey, teamKey } = run.options;
  const detail = (exchange.json as { detail?: unknown } | undefined)?.detail;
  const refusal = mockKeyRefusal(run.options, {
    status: exchange.status,
    wwwAuthenticate: exchange.headers['www-authenticate'],
    detail: typeof detail === 'string' ? detail : undefined,
  });
  if (!refusal) return;
  const hint =
    exchange.status === 403
      ? '; name one of your orgs with --org (or pass --token minted for one: opsapi token --team-key)'
      : adminKey || teamKey
        ? ''
        : ', or --no-mock-admin with --token to run without the admin API';
  throw new UsageError(`${run.options.baseUrl}: ${refusal}${hint}`);
}

/** On a mock with the admin API: tokens of a fresh tenant, its sample records and its webhook secret. */
export async function prepareMock(run: RunContext): Promise<void> {
  const { client, credentials, redactor, options } = run;
  const headers = mockAdminHeaders(run);
  const org =
    (credentials.main && orgOf(credentials.main)) ?? options.mockOrg ?? `conform-${nonce()}${nonce().slice(0, 4)}`;
  const all = contractPermissions();
  const mint = async (claims: { org: string; permissions: string[]; roles: string[] }): Promise<string | undefined> => {
    const ex = await client.send('setup', {
      method: 'POST',
      path: '/__mock/tokens',
      auth: 'none',
      headers,
      json: { ...claims, expiresIn: 3600 },
    });
    refusedKey(run, ex);
    const token = (ex.json as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string') return undefined;
    redactor.add(token);
    return token;
  };
  const admin = (o: string) => ({ org: o, permissions: all, roles: ['App.Admin'] });
  credentials.main ??= await mint(admin(org));
  credentials.limited ??= await mint({ org, permissions: all.filter((p) => p.endsWith('.Read')), roles: [] });
  credentials.other ??= await mint(admin(`${org}-other`));
  credentials.rateLimit = await mint(admin(`${org}-rl`));
  const without = new Map<string, Promise<string | undefined>>();
  credentials.without = (permission) => {
    let p = without.get(permission);
    if (!p) {
      p = mint({ org, permissions: all.filter((x) => x !== permission), roles: [] });
      without.set(permission, p);
    }
    return p;
  };
  if (credentials.main) {
    const fixtures = await client.send('setup', { method: 'GET', path: '/__mock/fixtures', headers });
    // Keys this version does not know (a mock of a newer kit) are dropped, not a reason to use no fixtures at all.
    const manifest =
      fixtures.status === 200 ? parsePartialDataManifest(fixtures.json, { unknownKeys: 'drop' }) : undefined;
    if (manifest?.ok) Object.assign(run.data, { ...manifest.value, ...(options.data ?? {}) });
    if (!run.webhookSecret) {
      const secret = await client.send('setup', { method: 'GET', path: '/__mock/webhook-secret', headers });
      const value = (secret.json as { secret?: unknown } | undefined)?.secret;
      if (typeof value === 'string') {
        run.webhookSecret = value;
        redactor.add(value);
      }
    }
  }
}
