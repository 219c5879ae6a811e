import { DataManifest } from '../../../common/data-manifest.js';
import { ok } from '../../handlers/context.js';
import { send } from '../../http/send.js';
import { tenantOf, type AdminContext, type AdminInstance } from '../context.js';
import { jsonAnswer, NO_TENANT, problemAnswers, TAG, TENANT_CREDENTIALS, TENANT_NOTE } from '../doc-parts.js';

/**
 * `GET /__mock/fixtures`: sample records of the caller's tenant, in the conformance runner's `--data` format (one
 * schema for both, common/data-manifest.ts).
 */
export function registerFixtures(admin: AdminInstance, { scoped }: AdminContext): void {
  admin.get(
    '/__mock/fixtures',
    {
      schema: {
        operationId: 'mockFixtures',
        tags: [TAG.tenant],
        summary: "Sample records of the tenant's world",
        description: `Identifiers to use in requests (a SKU with inspections, units, a location and lot, a deletable family, purchase order lines), in the conformance runner's \`--data\` format. ${TENANT_NOTE}`,
        security: TENANT_CREDENTIALS,
        response: { 200: jsonAnswer('The sample records.', DataManifest), ...problemAnswers(NO_TENANT) },
      },
      preValidation: scoped,
    },
    async (req, reply) => send(reply, ok(200, tenantOf(req).manifest)),
  );
}
