import { BlockList, isIP } from 'node:net';
import { DEFAULT_JWT_SECRET, type MockOptions } from './options.js';

/**
 * Shared mode, secure by default (docs/DESIGN.md, "Shared sandbox"): the rules a mock's options must meet before it listens.
 * A mock on loopback is reachable from this machine only, so it keeps the embedded defaults (`npm start` needs no
 * configuration); on any other address a stranger could forge tokens with the published default JWT secret (or a short
 * one, guessed offline), or mint tokens, read webhook secrets and wipe every tenant through an unguarded admin API, so
 * the mock refuses to start.
 */

/** Fewest characters of an admin key (inferred: 16 random characters are beyond guessing over HTTP). */
const MIN_ADMIN_KEY_LENGTH = 16;

/**
 * Fewest characters of the JWT secret and the webhook key of a mock others reach. Unlike the admin key, these can be
 * guessed offline, with no throttle: from any token the mock signed (the JWT secret) or from one tenant's webhook
 * secret (the webhook key), and either guessed gives every tenant away. 32 characters: RFC 7518 section 3.2 wants an
 * HS256 key of at least 256 bits, which 32 bytes are (inferred: counted in characters, so a hex key of 32 holds 128
 * random bits, still beyond an offline search; `openssl rand -hex 32` gives 64).
 */
export const MIN_SECRET_LENGTH = 32;

/** A header value sent as is: visible ASCII without spaces (inferred: HTTP trims spaces around a header value). */
const KEY_CHARACTERS = /^[\x21-\x7e]+$/;

/** Loopback addresses (RFC 1122 section 3.2.1.3 and RFC 4291 section 2.5.3); IPv4 written as IPv6 counts as IPv4. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Whether a `--host` is a loopback address or name: 127.0.0.0/8, ::1 (in any spelling), localhost. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.trim().replace(/^\[(.*)\]$/, '$1');
  if (/^localhost\.?$/i.test(bare)) return true;
  const family = isIP(bare);
  return family !== 0 && LOOPBACK.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/** Whether an admin key can be used: long enough and sendable as is in a header. Never names the key itself. */
export function checkAdminKey(key: string): { ok: true } | { ok: false; error: string } {
  if (key.length === 0)
    return {
      ok: false,
      error: '--admin-key is empty (an unset secret?); use e.g. --admin-key "$(openssl rand -hex 32)"',
    };
  if (key.length < MIN_ADMIN_KEY_LENGTH)
    return {
      ok: false,
      error: `--admin-key is ${key.length} characters; use at least ${MIN_ADMIN_KEY_LENGTH}, e.g. "$(openssl rand -hex 32)"`,
    };
  if (!KEY_CHARACTERS.test(key))
    return {
      ok: false,
      error: '--admin-key must be visible ASCII characters without spaces (it is sent as is in X-Admin-Key)',
    };
  return { ok: true };
}

/** Why the mock must not start with these options (one line naming the flag to set), or null when it may. */
export function sharedModeRefusal(
  options: Pick<MockOptions, 'host' | 'jwtSecret' | 'admin' | 'adminKey'> & Partial<Pick<MockOptions, 'webhookKey'>>,
): string | null {
  if (options.admin && options.adminKey !== null) {
    const key = checkAdminKey(options.adminKey);
    if (!key.ok) return key.error;
  }
  if (isLoopbackHost(options.host)) return null;
  if (options.jwtSecret === DEFAULT_JWT_SECRET)
    return `refusing --host ${options.host} with the default --jwt-secret: anyone who can reach the mock could forge tokens; set --jwt-secret "$(openssl rand -hex 32)"`;
  if (options.jwtSecret.length < MIN_SECRET_LENGTH)
    return `refusing --host ${options.host} with a --jwt-secret of ${options.jwtSecret.length} characters: it could be guessed offline from any token; use at least ${MIN_SECRET_LENGTH}, e.g. "$(openssl rand -hex 32)"`;
  if (typeof options.webhookKey === 'string' && options.webhookKey.length < MIN_SECRET_LENGTH)
    return `refusing --host ${options.host} with a --webhook-key of ${options.webhookKey.length} characters: it could be guessed offline from one tenant's webhook secret; use at least ${MIN_SECRET_LENGTH}, e.g. "$(openssl rand -hex 32)", or leave it out for a random one`;
  if (options.admin && options.adminKey === null)
    return `refusing --host ${options.host} without --admin-key: anyone who can reach the mock could mint tokens and reset every tenant through /__mock/*; set --admin-key (${MIN_ADMIN_KEY_LENGTH}+ characters) or turn the admin API off with --no-admin`;
  return null;
}

/** Thrown by `startMock` when `sharedModeRefusal` refuses its options (the CLI says the same in one line first). */
export class SharedModeError extends Error {
  override readonly name = 'SharedModeError';
}
