/**
 * The team key of a shared mock (docs/DESIGN.md, "Shared sandbox"): the operator creates a team
 * bound to an org prefix (`POST /__mock/teams`) and hands its key to the team, which sends it as `X-Team-Key` to mint
 * tokens for its own orgs and to call their tenant-scoped `/__mock/*` routes. Both sides read the header name here.
 */

/** The request header carrying a team key; lowercase, as Node reports header names. */
export const TEAM_KEY_HEADER = 'x-team-key';

/**
 * The `WWW-Authenticate` challenge of a refused team key's 401 (inferred: RFC 9110 section 11.6.1 wants a challenge on
 * every 401, and the scheme `TeamKey` tells a client its team key was refused, unknown or revoked).
 */
export const TEAM_KEY_CHALLENGE = 'TeamKey realm="opsapi-mock-admin", header="X-Team-Key"';
