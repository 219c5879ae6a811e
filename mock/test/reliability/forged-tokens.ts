import { createHmac } from 'node:crypto';
import { SignJWT, generateKeyPair, type JWTPayload } from 'jose';
import { adminClaims } from '../../auth/presets.js';
import { mintToken } from '../../auth/tokens.js';

const b64 = (value: unknown): string =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** A compact JWT from a header and payload, signed with HMAC-SHA256 of the secret whatever the header says. */
export function hmacToken(secret: string, header: Record<string, unknown>, payload: Record<string, unknown>): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

/** A token with every claim of an admin of `org`, valid for an hour from now unless the payload says otherwise. */
function claims(org: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  const c = adminClaims(org);
  return { org, sub: c.sub, permissions: c.permissions, roles: c.roles, iat: now, exp: now + 3600, ...extra };
}

async function signed(secret: string, alg: 'HS256' | 'HS384' | 'HS512', payload: JWTPayload): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg, typ: 'JWT' }).sign(new TextEncoder().encode(secret));
}

/**
 * Tokens the mock must refuse with the plain 401 (each under 16 KB, so it reaches authentication): wrong signatures,
 * other algorithms, unsigned tokens, expiry and not-before outside the leeway, malformed claims and garbage.
 */
export async function forgedTokens(secret: string, org: string): Promise<{ name: string; token: string }[]> {
  const now = Math.floor(Date.now() / 1000);
  const valid = await mintToken(secret, adminClaims(org));
  const [h, p, s] = valid.split('.') as [string, string, string];
  const { privateKey } = await generateKeyPair('RS256');
  const rs256 = await new SignJWT(claims(org)).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(privateKey);
  const flipped = `${s.slice(0, -2)}${s.at(-2) === 'A' ? 'B' : 'A'}${s.at(-1)}`;
  return [
    { name: 'signature of another secret', token: await mintToken(`${secret}-other`, adminClaims(org)) },
    { name: 'tampered signature', token: `${h}.${p}.${flipped}` },
    { name: 'tampered payload (other org, original signature)', token: `${h}.${b64(claims('someone-else'))}.${s}` },
    { name: 'empty signature', token: `${h}.${p}.` },
    { name: 'alg none, no signature', token: `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims(org))}.` },
    { name: 'alg none with the original signature', token: `${b64({ alg: 'none', typ: 'JWT' })}.${p}.${s}` },
    { name: 'alg NONE', token: `${b64({ alg: 'NONE' })}.${b64(claims(org))}.` },
    { name: 'HS512 with the same secret', token: await signed(secret, 'HS512', claims(org)) },
    { name: 'HS384 with the same secret', token: await signed(secret, 'HS384', claims(org)) },
    { name: 'RS256 with a key pair', token: rs256 },
    {
      name: 'RS256 header over an HMAC signature (algorithm confusion)',
      token: hmacToken(secret, { alg: 'RS256', typ: 'JWT' }, claims(org)),
    },
    { name: 'no alg header', token: hmacToken(secret, { typ: 'JWT' }, claims(org)) },
    {
      name: 'critical header the verifier does not know',
      token: hmacToken(secret, { alg: 'HS256', crit: ['x-unknown'], 'x-unknown': 1 }, claims(org)),
    },
    {
      name: 'unencoded payload (b64: false)',
      token: hmacToken(secret, { alg: 'HS256', b64: false, crit: ['b64'] }, claims(org)),
    },
    { name: 'expired 60 s ago', token: await mintToken(secret, adminClaims(org), -60) },
    { name: 'expired a day ago', token: await mintToken(secret, adminClaims(org), 60, now - 86_400) },
    // An hour, not a minute: the tokens are made once per file and used for minutes on a busy machine, when a minute
    // ahead would have become the past (auth-hardening.e2e.test.ts mints its 60 s case at the moment it sends it).
    { name: 'nbf an hour in the future', token: hmacToken(secret, { alg: 'HS256' }, claims(org, { nbf: now + 3600 })) },
    {
      name: 'iat far in the future and nbf a year ahead',
      token: hmacToken(secret, { alg: 'HS256' }, claims(org, { iat: now + 31_536_000, nbf: now + 31_536_000 })),
    },
    { name: 'missing exp', token: hmacToken(secret, { alg: 'HS256' }, claims(org, { exp: undefined })) },
    { name: 'exp as a string', token: hmacToken(secret, { alg: 'HS256' }, claims(org, { exp: String(now + 3600) })) },
    { name: 'exp as NaN (null)', token: hmacToken(secret, { alg: 'HS256' }, claims(org, { exp: null })) },
    { name: 'nbf as a string', token: hmacToken(secret, { alg: 'HS256' }, claims(org, { nbf: 'soon' })) },
    { name: 'missing org', token: hmacToken(secret, { alg: 'HS256' }, claims(org, { org: undefined })) },
    { name: 'org as a number', token: hmacToken(secret, { alg: 'HS256' }, claims(org, { org: 42 })) },
    { name: 'org as an array', token: hmacToken(secret, { alg: 'HS256' }, claims(org, { org: [org] })) },
    { name: 'org as an object', token: hmacToken(secret, { alg: 'HS256' }, claims(org, { org: { code: org } })) },
    { name: 'org empty', token: hmacToken(secret, { alg: 'HS256' }, claims(org, { org: '' })) },
    { name: 'org with a path', token: hmacToken(secret, { alg: 'HS256' }, claims(org, { org: '../other' })) },
    { name: 'org too long', token: hmacToken(secret, { alg: 'HS256' }, claims(org, { org: 'o'.repeat(65) })) },
    { name: 'org with a NUL', token: hmacToken(secret, { alg: 'HS256' }, claims(org, { org: `${org}\u0000x` })) },
    {
      name: 'permissions as a string',
      token: hmacToken(secret, { alg: 'HS256' }, claims(org, { permissions: 'App.Admin' })),
    },
    {
      name: 'roles with a number',
      token: hmacToken(secret, { alg: 'HS256' }, claims(org, { roles: ['App.Admin', 1] })),
    },
    { name: 'payload not JSON', token: `${h}.${b64('not json')}.${s}` },
    {
      name: 'payload a JSON array',
      token: hmacToken(secret, { alg: 'HS256' }, [] as unknown as Record<string, unknown>),
    },
    { name: 'header not JSON', token: `${b64('{alg')}.${p}.${s}` },
    { name: 'garbage segments', token: 'abc.def.ghi' },
    { name: 'two dots only', token: '..' },
    { name: 'segments of dashes', token: '---.___.---' },
    { name: 'four segments', token: `${valid}.extra` },
    {
      name: 'a JWE-shaped token',
      token: `${b64({ alg: 'dir', enc: 'A256GCM' })}..${b64('iv')}.${b64('ct')}.${b64('tag')}`,
    },
    { name: 'a huge token (15 KB)', token: `${h}.${'A'.repeat(15_000)}.${s}` },
  ];
}
