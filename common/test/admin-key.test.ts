import { describe, expect, it } from 'vitest';
import { ADMIN_KEY_CHALLENGE, adminKeyRefusalMessage, isAdminKeyRefusal } from '../admin-key.js';
import { mockKeyHeaders } from '../mock-keys.js';

describe("the admin key's 401, as a client of the admin API reads it", () => {
  it("is a 401 with the AdminKey challenge, not the tenant's Bearer one", () => {
    expect(isAdminKeyRefusal(401, ADMIN_KEY_CHALLENGE)).toBe(true);
    expect(isAdminKeyRefusal(401, [ADMIN_KEY_CHALLENGE])).toBe(true);
    expect(isAdminKeyRefusal(401, 'Bearer realm="opsapi"')).toBe(false);
    expect(isAdminKeyRefusal(401, undefined)).toBe(false);
    expect(isAdminKeyRefusal(403, ADMIN_KEY_CHALLENGE)).toBe(false);
  });

  it('says the admin API refused the key when one was sent, and that it needs one when none was', () => {
    expect(adminKeyRefusalMessage(true)).toMatch(/admin API refused the key: --admin-key \(or OPSAPI_ADMIN_KEY\)/);
    expect(adminKeyRefusalMessage(false)).toMatch(/admin API needs a key .*: pass --admin-key \(or OPSAPI_ADMIN_KEY\)/);
  });

  it('is avoided by sending the key in X-Admin-Key, and nothing when no key is configured', () => {
    expect(mockKeyHeaders({ adminKey: 'k'.repeat(16) })).toEqual({ 'x-admin-key': 'k'.repeat(16) });
    expect(mockKeyHeaders({ adminKey: undefined })).toEqual({});
    expect(mockKeyHeaders({ adminKey: '' })).toEqual({});
  });
});
