import type { MockKeys } from '../common/mock-keys.js';
import { adminClaims } from '../mock/auth/presets.js';
import { mintToken } from '../mock/auth/tokens.js';
import { callMockAdmin } from './mock-admin-call.js';

/**
 * A token could not be minted on the mock: refused keys, an org or a lifetime beyond the team's reach, or no mock at
 * that URL. The command's credentials or configuration, never the target's behaviour: the commands exit 2 with the
 * message (one line).
 */
export class MintError extends Error {
  override readonly name = 'MintError';
}

/** The claims a token is minted with. */
interface Claims {
  readonly org: string;
  readonly permissions?: readonly string[] | undefined;
  readonly roles?: readonly string[] | undefined;
}

/**
 * Mints a token on the mock (`POST /__mock/tokens`, docs/DESIGN.md, "Shared sandbox") with the
 * caller's keys: with a team key, only for the team's orgs and for at most the lifetime the mock allows teams (absent
 * `expiresIn`: the mock's default for the team), so a team never needs the JWT secret. Throws `MintError`.
 */
export async function mintOnMock(baseUrl: string, keys: MockKeys, claims: Claims, expiresIn?: number): Promise<string> {
  const { status, json, said } = await callMockAdmin(
    {
      baseUrl,
      method: 'POST',
      path: '/__mock/tokens',
      body: {
        org: claims.org,
        permissions: claims.permissions ?? [],
        roles: claims.roles ?? [],
        ...(expiresIn !== undefined ? { expiresIn } : {}),
      },
      keys,
    },
    (message) => {
      throw new MintError(message);
    },
  );
  const token = (json as { token?: unknown } | undefined)?.token;
  if (status === 201 && typeof token === 'string' && token) return token;
  throw new MintError(
    `${baseUrl.replace(/\/+$/, '')}/__mock/tokens answered ${status}${said ? `: ${said.slice(0, 300)}` : ' without a token; is it the mock, with its admin API on?'}`,
  );
}

/** Lifetime of a token signed here when none is asked: a day, as `opsapi token`'s default. */
const OFFLINE_SECONDS = 24 * 3600;

/**
 * An App.Admin token of `org` for a command that drives the mock (`coverage`, `trigger`, `listen`): with a team key
 * minted on the mock for `seconds` (absent: the longest the mock gives a team), so a team never holds the JWT secret;
 * otherwise signed here with `jwtSecret` (the mock's `--jwt-secret`, published for a local mock). Throws `MintError`.
 */
export function adminTokenOf(
  o: {
    readonly baseUrl: string;
    readonly org: string;
    readonly jwtSecret: string;
    readonly teamKey?: string | undefined;
  },
  seconds?: number,
): Promise<string> {
  const claims = adminClaims(o.org);
  return o.teamKey
    ? mintOnMock(o.baseUrl, { teamKey: o.teamKey }, claims, seconds)
    : mintToken(o.jwtSecret, claims, seconds ?? OFFLINE_SECONDS);
}
