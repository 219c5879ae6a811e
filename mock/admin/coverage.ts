import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from '@sinclair/typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import { ok } from '../handlers/context.js';
import { send } from '../http/send.js';
import { cachedSerializerCompiler } from '../http/serializers.js';
import { coverageOf } from '../coverage/tenants.js';
import { parseOperationList } from '../coverage/report.js';
import { CONTRACT_UNIVERSE } from '../coverage/universe.js';
import { CoverageBody } from '../coverage/schema.js';
import type { Described } from './schemas.js';
import { invalid } from './validation.js';

/** The admin plugin's instance, with TypeBox types for schemas. */
type AdminInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/**
 * `GET /__mock/coverage?operations=id,id`: restricts the operations, the pairs and the summary's totals to the
 * operations a client uses (inferred: a client suite gates on what it calls, not on the whole contract).
 */
export const CoverageQuery = {
  schema: Type.Object({ operations: Type.Optional(Type.String({ maxLength: 4000 })) }),
  details: { operations: 'operations must be one comma-separated list of operationIds.' },
} satisfies Described<TSchema>;

const OPERATION_IDS = CONTRACT_UNIVERSE.operations.map((op) => op.operationId);

/**
 * `GET /__mock/coverage` (docs/DESIGN.md, "Testing API"): which operations and which declared status/code pairs the
 * caller's tenant has exercised since it was seeded or reset. `?operations=id,id` restricts the rows and the
 * totals; an unknown operationId is a 400 naming it. `scoped` authenticates the tenant first (401).
 */
export function registerCoverageRoute(
  admin: AdminInstance,
  scoped: (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>,
): void {
  admin.get(
    '/__mock/coverage',
    {
      schema: { querystring: CoverageQuery.schema, response: { 200: CoverageBody } },
      // Compiled once per process, on first use, like the operations' (~5 ms of every mock built otherwise).
      serializerCompiler: cachedSerializerCompiler,
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
