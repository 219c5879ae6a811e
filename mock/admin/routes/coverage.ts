import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifySerializerCompiler } from 'fastify';
import { parseOperationList } from '../../coverage/report.js';
import { CoverageBody } from '../../coverage/schema.js';
import { coverageOf } from '../../coverage/tenants.js';
import { CONTRACT_UNIVERSE } from '../../coverage/universe.js';
import { ok } from '../../handlers/context.js';
import { send } from '../../http/send.js';
import { cachedSerializerCompiler } from '../../http/serializers.js';
import type { AdminContext, AdminInstance } from '../context.js';
import {
  INVALID_REQUEST,
  jsonAnswer,
  NO_TENANT,
  problemAnswers,
  TAG,
  TENANT_CREDENTIALS,
  TENANT_NOTE,
} from '../doc-parts.js';
import { invalid, type Described } from '../validation.js';

/**
 * `GET /__mock/coverage?operations=id,id`: restricts the operations, the pairs and the summary's totals to the
 * operations a client uses (inferred: a client suite gates on what it calls, not on the whole contract).
 */
const CoverageQuery = {
  schema: Type.Object({
    operations: Type.Optional(
      Type.String({
        maxLength: 4000,
        description: 'operationIds of the contract, comma-separated: only these operations count (default: all)',
      }),
    ),
  }),
  details: { operations: 'operations must be one comma-separated list of operationIds.' },
} satisfies Described<TSchema>;

const OPERATION_IDS = CONTRACT_UNIVERSE.operations.map((op) => op.operationId);

/**
 * The success answer goes through its schema's serializer, compiled once per process on first use, like the
 * operations' (~5 ms of every mock built otherwise); problems are written as they are, as on every admin route.
 */
const serializerCompiler: FastifySerializerCompiler<unknown> = (route) =>
  route.httpStatus === '200' ? cachedSerializerCompiler(route) : (data) => JSON.stringify(data);

/**
 * `GET /__mock/coverage` (docs/DESIGN.md, "Testing API"): which operations and which declared status/code pairs the
 * caller's tenant has exercised since it was seeded or reset. `?operations=id,id` restricts the rows and the
 * totals; an unknown operationId is a 400 naming it.
 */
export function registerCoverage(admin: AdminInstance, { scoped }: AdminContext): void {
  admin.get(
    '/__mock/coverage',
    {
      schema: {
        operationId: 'mockCoverage',
        tags: [TAG.tenant],
        summary: "What the tenant's traffic exercised",
        description: `Which operations of the contract, and which documented status/code pairs of each, the tenant's requests exercised (a gate for client test suites: \`opsapi coverage\`). ${TENANT_NOTE}`,
        security: TENANT_CREDENTIALS,
        querystring: CoverageQuery.schema,
        response: {
          200: jsonAnswer('The coverage.', CoverageBody),
          ...problemAnswers(INVALID_REQUEST, NO_TENANT),
        },
      },
      serializerCompiler,
      config: { fieldDetails: CoverageQuery.details },
      preValidation: scoped,
    },
    async (req, reply) => {
      let operationIds: string[] | undefined;
      if (req.query.operations !== undefined) {
        const parsed = parseOperationList(req.query.operations, OPERATION_IDS);
        if (!parsed.ok) return invalid(req, reply, `operations: ${parsed.error}.`, 'operations');
        operationIds = parsed.value;
      }
      return send(reply, ok(200, coverageOf(req.adminTenant ?? undefined, operationIds)));
    },
  );
}
