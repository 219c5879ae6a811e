import { inferred } from './provenance.js';

/**
 * What a server does when `X-Api-Key` comes together with a bearer token. The reference says every request carries
 * the bearer token (Authentication, point 1) and that the key "is also sent in an X-Api-Key header in list requests"
 * (point 2); what happens with both headers is not shown. Recorded on the `ApiKey` security scheme as `x-with-bearer`;
 * the mock (mock/http/credentials.ts) and the conformance checks (conformance/checks/auth.ts) follow it.
 */
export const KEY_WITH_BEARER = {
  rule: 'An X-Api-Key equal to the bearer token of the same request is that credential sent twice, and is accepted. Any other X-Api-Key next to a bearer token must be a valid, active key of the same tenant, else the plain 401.',
  ...inferred(
    'The reference does not say what a server does with both headers. Every operation keeps two alternative requirements, {JWTApiKey} or {ApiKey}: an AND requirement would refuse the bearer token alone, which Authentication point 1 makes sufficient. Client generators flatten the requirements: @hey-api/openapi-ts with its usual `auth: () => token` sends that one token as `Authorization: Bearer <token>` and as `X-Api-Key: <token>` on every operation listing both schemes (hey-api/hey-api#3195), and dropping ApiKey from some operations would not change what it sends on list requests, where the reference puts the key. Accepting the repeated token trusts nothing unverified (the token itself is verified); a different, invalid key is still refused.',
  ),
};
