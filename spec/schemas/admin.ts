import { Type, type Static } from '@sinclair/typebox';
import { inferred } from '../provenance.js';
import { DateTime } from './common.js';
import { openObject } from './open.js';

const TENANT_RATIONALE =
  "GET /v1/admin/tenants/self appears only in an error message of the reference; the tenant shape is this kit's decision (`orgCode` matches the API key field of that name).";

/** The caller's tenant (`GET /v1/admin/tenants/self`). */
export const Tenant = Type.Object(
  {
    id: Type.String({ minLength: 1, description: 'identifier of the tenant', ...inferred(TENANT_RATIONALE) }),
    orgCode: Type.String({
      minLength: 1,
      description: 'organisation code (the `org` of tokens and `orgCode` of API keys)',
      ...inferred(TENANT_RATIONALE),
    }),
    name: Type.String({ description: 'display name', ...inferred(TENANT_RATIONALE) }),
    plan: Type.Union([Type.Literal('Starter'), Type.Literal('Professional'), Type.Literal('Enterprise')], {
      description: 'subscription plan',
      ...inferred(TENANT_RATIONALE),
    }),
    timeZone: Type.String({ description: 'IANA time zone', ...inferred(TENANT_RATIONALE) }),
    isExpired: Type.Boolean({ description: 'whether the subscription has expired', ...inferred(TENANT_RATIONALE) }),
    createdAt: DateTime('creation time', inferred(TENANT_RATIONALE)),
  },
  {
    ...openObject(
      'GET /v1/admin/tenants/self appears only in an error message ("Their details: not shown"); a real tenant has fields this kit does not know.',
    ),
    ...inferred(TENANT_RATIONALE),
  },
);
export type Tenant = Static<typeof Tenant>;
