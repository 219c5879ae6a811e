import { decodeJwt } from 'jose';
import { adminKeyRefusalMessage, isAdminKeyRefusal } from '../../common/admin-key.js';
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

/** A run cannot use an admin API that refuses its key (or wants one): one line saying which (a usage error, exit 2). */
function refusedKey(run: RunContext, exchange: Exchange): void {
  if (!isAdminKeyRefusal(exchange.status, exchange.headers['www-authenticate'])) return;
  const sent = run.options.adminKey !== undefined;
  throw new UsageError(
    `${run.options.baseUrl}: ${adminKeyRefusalMessage(sent)}${sent ? '' : ', or --no-mock-admin with --token to run without the admin API'}`,
  );
}

/** On a mock with the admin API: tokens of a fresh tenant, its sample records and its webhook secret. */
export async function prepareMock(run: RunContext): Promise<void> {
  const { client, credentials, redactor, options } = run;
  const headers = mockAdminHeaders(run);
  const org = (credentials.main && orgOf(credentials.main)) ?? `conform-${nonce()}${nonce().slice(0, 4)}`;
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
