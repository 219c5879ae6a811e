/** Who is calling: the tenant (`org`) and what they may do. */
export interface Principal {
  readonly org: string;
  readonly subject: string;
  readonly permissions: ReadonlySet<string>;
  readonly roles: ReadonlySet<string>;
  readonly via: 'jwt' | 'apiKey';
  readonly apiKeyId?: string;
  /** The team whose key minted the token, if one did (docs/DESIGN.md, "Team credentials (shared sandbox)"). */
  readonly team?: string;
}

/** The role/permission that grants the admin operations (Authentication, point 4). */
export const ADMIN = 'App.Admin';

/**
 * Whether the principal holds a permission. "Operations need a role or permission": a name matches either list.
 * `App.Admin` grants only the operations that require `App.Admin` (inferred: the role-to-permission mapping is not shown).
 */
export function holds(principal: Principal, permission: string): boolean {
  return principal.permissions.has(permission) || principal.roles.has(permission);
}
