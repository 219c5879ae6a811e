import { Type, type Static } from '@sinclair/typebox';
import { inferred } from '../provenance.js';
import { AUDIT_RATIONALE, DateTime, NullableString } from './common.js';
import { openObject } from './open.js';

const ASSET_RATIONALE =
  "GET /v1/maintenance/assets appears only in an error message of the reference; the asset shape is this kit's decision, following the MAINTENANCE.ASSET error codes (equipment and space assets with parents).";

/** A maintenance asset (`GET /v1/maintenance/assets`). */
export const Asset = Type.Object(
  {
    id: Type.String({ minLength: 1, description: 'identifier of the asset', ...inferred(ASSET_RATIONALE) }),
    code: Type.String({ description: 'asset code', ...inferred(ASSET_RATIONALE) }),
    name: Type.String({ description: 'asset name', ...inferred(ASSET_RATIONALE) }),
    kind: Type.Union([Type.Literal('Equipment'), Type.Literal('Space')], {
      description: 'equipment or space',
      ...inferred(ASSET_RATIONALE),
    }),
    parentId: NullableString('identifier of the parent asset, null for a root asset', inferred(ASSET_RATIONALE)),
    status: Type.Union([Type.Literal('Operational'), Type.Literal('OutOfService')], {
      description: 'operational status',
      ...inferred(ASSET_RATIONALE),
    }),
    hoursInService: Type.Number({ minimum: 0, description: 'running hours recorded', ...inferred(ASSET_RATIONALE) }),
    createdAt: DateTime('creation time', inferred(AUDIT_RATIONALE)),
    lastModifiedAt: DateTime('last modification time', inferred(AUDIT_RATIONALE)),
  },
  {
    ...openObject(
      'GET /v1/maintenance/assets appears only in an error message ("Their details: not shown"); a real asset has fields this kit does not know.',
    ),
    ...inferred(ASSET_RATIONALE),
  },
);
export type Asset = Static<typeof Asset>;
