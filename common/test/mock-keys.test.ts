import { describe, expect, it } from 'vitest';
import { ADMIN_KEY_CHALLENGE } from '../admin-key.js';
import { mockKeyHeaders, mockKeyRefusal } from '../mock-keys.js';
import { TEAM_KEY_CHALLENGE } from '../team-key.js';

describe('the keys a client of the admin API sends', () => {
  it('are the headers of the keys given, an empty one (an unset CI secret) none', () => {
    expect(mockKeyHeaders({})).toEqual({});
    expect(mockKeyHeaders({ adminKey: '', teamKey: '' })).toEqual({});
    expect(mockKeyHeaders({ teamKey: 'tk' })).toEqual({ 'x-team-key': 'tk' });
    expect(mockKeyHeaders({ adminKey: 'ak', teamKey: 'tk' })).toEqual({ 'x-admin-key': 'ak', 'x-team-key': 'tk' });
  });
});

describe('what a client says of a refusal of the admin API', () => {
  const refusal = (keys: Parameters<typeof mockKeyRefusal>[0], status: number, www?: string, detail?: string) =>
    mockKeyRefusal(keys, { status, wwwAuthenticate: www, detail });

  it('names the team key when the mock does not know it (or it was revoked)', () => {
    expect(refusal({ teamKey: 'tk' }, 401, TEAM_KEY_CHALLENGE)).toMatch(
      /refused the team key: --team-key \(or OPSAPI_TEAM_KEY\) is unknown to it or was revoked/,
    );
  });

  it('says which key the admin API wants', () => {
    expect(refusal({ adminKey: 'ak' }, 401, ADMIN_KEY_CHALLENGE)).toMatch(/refused the key: --admin-key/);
    expect(refusal({}, 401, ADMIN_KEY_CHALLENGE)).toMatch(
      /needs a key .*: pass --admin-key \(or OPSAPI_ADMIN_KEY\), or --team-key \(or OPSAPI_TEAM_KEY\)/,
    );
    expect(refusal({ teamKey: 'tk' }, 401, ADMIN_KEY_CHALLENGE)).toMatch(/operator's: the mock wants --admin-key/);
  });

  it("tells a team's 403 with the mock's reason, in one line", () => {
    expect(refusal({ teamKey: 'tk' }, 403, undefined, "only orgs starting with\n'acme-'")).toMatch(
      /^the team key does not reach this \(only orgs starting with 'acme-'\): a team reaches only/,
    );
  });

  it('is no refusal for a tenant credential, a 403 without a team key, or a success', () => {
    expect(refusal({ teamKey: 'tk' }, 401, 'Bearer realm="x"')).toBeNull();
    expect(refusal({}, 403)).toBeNull();
    expect(refusal({ adminKey: 'ak', teamKey: 'tk' }, 403)).toBeNull();
    expect(refusal({ teamKey: 'tk' }, 200)).toBeNull();
  });
});
