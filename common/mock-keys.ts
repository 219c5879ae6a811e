import { ADMIN_KEY_HEADER, adminKeyRefusalMessage, isAdminKeyRefusal } from './admin-key.js';
import { TEAM_KEY_HEADER } from './team-key.js';

/**
 * The keys a client of a shared mock's admin API holds (docs/DESIGN.md, "Shared sandbox"): the
 * operator's admin key (`--admin-key`, `X-Admin-Key`) or a team's key (`--team-key`, `X-Team-Key`). The kit's clients
 * of `/__mock/*` (the conformance runner, `opsapi coverage`, `trigger`, `listen`, `token`, `team`) send them through
 * here and read the mock's refusals the same way. Sent on `/__mock/*` calls only, never to `/v1` (nor a real
 * deployment).
 */
export interface MockKeys {
  readonly adminKey?: string | undefined;
  readonly teamKey?: string | undefined;
}

/** Where each key comes from in the kit's commands. */
const FLAGS = { admin: '--admin-key (or OPSAPI_ADMIN_KEY)', team: '--team-key (or OPSAPI_TEAM_KEY)' };

/** The headers of an admin API call: each key configured (empty ones, an unset CI secret, are none). */
export function mockKeyHeaders(keys: MockKeys): Record<string, string> {
  return {
    ...(keys.adminKey ? { [ADMIN_KEY_HEADER]: keys.adminKey } : {}),
    ...(keys.teamKey ? { [TEAM_KEY_HEADER]: keys.teamKey } : {}),
  };
}

/** Whether a 401 is the team key's refusal (its `TeamKey` challenge): a key the mock does not know, or revoked. */
function isTeamKeyRefusal(status: number, wwwAuthenticate: string | string[] | undefined): boolean {
  const challenge = [wwwAuthenticate ?? []].flat().join(', ');
  return status === 401 && /^\s*TeamKey\b/i.test(challenge);
}

/**
 * What a client says when the admin API refused its keys, or null when the answer is no such refusal: a 401 with the
 * `AdminKey` or `TeamKey` challenge, or, for a team key, the 403 of a route or an org beyond the team's reach (its
 * `detail` says which). Each is the command's configuration, not the mock's answer: the kit's commands exit 2.
 */
export function mockKeyRefusal(
  keys: MockKeys,
  answer: { status: number; wwwAuthenticate: string | string[] | undefined; detail?: string | undefined },
): string | null {
  const { status, wwwAuthenticate } = answer;
  if (isTeamKeyRefusal(status, wwwAuthenticate))
    return `the mock refused the team key: ${FLAGS.team} is unknown to it or was revoked; ask the operator for a new one`;
  if (isAdminKeyRefusal(status, wwwAuthenticate)) {
    if (keys.adminKey) return adminKeyRefusalMessage(true, FLAGS.admin);
    if (keys.teamKey)
      return `this call is the operator's: the mock wants ${FLAGS.admin}, which a team key does not replace`;
    return `${adminKeyRefusalMessage(false, FLAGS.admin)}, or ${FLAGS.team} for your team's orgs`;
  }
  if (status === 403 && keys.teamKey && !keys.adminKey)
    return `the team key does not reach this${answer.detail ? ` (${answer.detail.replace(/\s+/g, ' ').slice(0, 300).replace(/\.$/, '')})` : ''}: a team reaches only the orgs starting with its prefix, and never the operator's routes`;
  return null;
}
