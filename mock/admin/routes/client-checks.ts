import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClientCheckRun } from '../../client-checks/run.js';
import { DUPLICATE_AFTER_MS, MAX_INJECTED_429 } from '../../client-checks/plan.js';
import { renderClientReport } from '../../client-checks/report.js';
import { START_BOUNDS, startOptionsProblem } from '../../client-checks/run.js';
import { endRun, runOf, startRun } from '../../client-checks/tenants.js';
import { ok } from '../../handlers/context.js';
import { baseUrlOf, refOf } from '../../http/request-ref.js';
import { send } from '../../http/send.js';
import { codedProblem } from '../../problems.js';
import { tenantOf, type AdminContext, type AdminInstance } from '../context.js';
import {
  BODY_PROBLEMS,
  codedProblemDoc,
  INVALID_REQUEST,
  jsonAnswer,
  NO_TENANT,
  problemAnswers,
  TAG,
  TENANT_CREDENTIALS,
  TENANT_NOTE,
} from '../doc-parts.js';
import { BODY_NOT_OBJECT, invalid, parseJsonBody, type Described } from '../validation.js';

const bounded = (name: keyof typeof START_BOUNDS, description: string) =>
  Type.Optional(Type.Integer({ minimum: START_BOUNDS[name].min, maximum: START_BOUNDS[name].max, description }));
const boundsDetail = (name: keyof typeof START_BOUNDS) =>
  `${name} must be an integer from ${START_BOUNDS[name].min} to ${START_BOUNDS[name].max}.`;

/** `POST /__mock/client-checks`. */
const StartBody = {
  schema: Type.Object({
    profile: Type.Optional(
      Type.Union([Type.Literal('observe'), Type.Literal('certify')], {
        description:
          '`observe` (default) only watches; `certify` also injects 429s and sends duplicate, forged and raw-sensitive deliveries',
      }),
    ),
    seed: bounded('seed', 'the seed of the perturbation plan (default: drawn, and told in the answer)'),
    retryAfterSeconds: bounded('retryAfterSeconds', 'the delay an injected 429 indicates, seconds (default 1)'),
    answerWithinMs: bounded('answerWithinMs', 'the bound of client.receiver-fast, ms (default 2000, inferred)'),
    readWithinMs: bounded(
      'readWithinMs',
      "how long the checks wait for the client's read after a delivery, or its retry after a 429's delay, ms (default 5000, inferred)",
    ),
  }),
  details: {
    '': BODY_NOT_OBJECT,
    profile: 'profile must be observe or certify.',
    seed: boundsDetail('seed'),
    retryAfterSeconds: boundsDetail('retryAfterSeconds'),
    answerWithinMs: boundsDetail('answerWithinMs'),
    readWithinMs: boundsDetail('readWithinMs'),
  },
} satisfies Described<TSchema>;

const Started = Type.Object({
  profile: Type.Union([Type.Literal('observe'), Type.Literal('certify')]),
  seed: Type.Integer({ description: 'the seed of the perturbation plan (given, or drawn)' }),
  startedAt: Type.String({ format: 'date-time' }),
});

/** `GET /__mock/client-checks/report?format=`. */
const ReportQuery = {
  schema: Type.Object({
    format: Type.Optional(
      Type.Union([Type.Literal('json'), Type.Literal('junit'), Type.Literal('html')], {
        description: 'json (default), junit (XML) or html',
      }),
    ),
  }),
  details: { format: 'format must be json, junit or html.' },
} satisfies Described<TSchema>;

/** The report as documented: the runner's report fields and those of client checks (not every member is listed). */
const Report = Type.Object(
  {
    profile: Type.String(),
    seed: Type.Integer(),
    certified: Type.Boolean({ description: 'every MUST check ran and passed' }),
    mustRan: Type.Integer(),
    mustTotal: Type.Integer(),
    checks: Type.Array(Type.Object({}, { additionalProperties: true }), {
      description: '`id`, `title`, `clause`, `level`, `outcome` (pass, fail, skip), `reason`, `evidence`',
    }),
    pending: Type.Array(Type.Object({}, { additionalProperties: true }), {
      description: 'observations the checks still wait for: the outcomes may change until there is none',
    }),
    perturbations: Type.Array(Type.Object({}, { additionalProperties: true }), {
      description: 'what the profile certify applied, and when',
    }),
    notObservable: Type.Array(Type.Object({}, { additionalProperties: true }), {
      description: 'rules no observer outside the client can judge: listed, never passed',
    }),
  },
  { additionalProperties: true, description: 'The report of client checks, as `opsapi conform` reports a server.' },
);

const reportAnswer = (description: string) => ({
  description,
  content: {
    'application/json': { schema: Report },
    'application/xml': { schema: Type.String({ description: 'JUnit XML (`?format=junit`)' }) },
    'text/html': { schema: Type.String({ description: 'a self-contained page (`?format=html`)' }) },
  },
});

const NONE_RUNNING = codedProblemDoc('COMMON.ENTITY.NOT_FOUND', 'no client checks run for the tenant');

/** The report's target: the tenant and the mock's address as the caller reached it. */
const targetOf = (req: FastifyRequest, org: string) => `org ${org} at ${baseUrlOf(req)}`;

/** The 404 of a tenant without a run. */
function noneRunning(req: FastifyRequest, reply: FastifyReply, org: string): FastifyReply {
  return send(
    reply,
    codedProblem(
      baseUrlOf(req),
      'COMMON.ENTITY.NOT_FOUND',
      'No client checks run for the tenant: start them with POST /__mock/client-checks.',
      refOf(req),
      { entity: 'ClientChecks', id: org },
    ),
  );
}

/** A report as text of its format (sent as is: the report's members are not all in the documented schema). */
function sendReport(
  req: FastifyRequest,
  reply: FastifyReply,
  run: ClientCheckRun,
  org: string,
  format: 'json' | 'junit' | 'html',
  now: number,
): FastifyReply {
  const { contentType, body } = renderClientReport(run.report(now, targetOf(req, org)), format);
  return reply.code(200).type(contentType).send(body);
}

/**
 * `POST`, `GET .../report` and `DELETE /__mock/client-checks` (docs/DESIGN.md, "Client certification"): the mock
 * observes the tenant's `/v1` requests and the answers of the receivers it subscribed, perturbs them under the
 * profile certify, and reports each of the reference's rules for clients as a check. Per tenant; a reset of the
 * tenant ends them. Under `--redis` they observe the replica that started them.
 */
export function registerClientChecks(admin: AdminInstance, { services, scoped }: AdminContext): void {
  const { clock } = services;
  admin.post(
    '/__mock/client-checks',
    {
      schema: {
        operationId: 'mockStartClientChecks',
        tags: [TAG.tenant],
        summary: "Start (or restart) client checks of the tenant's traffic",
        description: `Starts judging the tenant's \`/v1\` requests and the answers of the receivers it subscribes through \`/v1\` against the reference's rules for clients (a restart forgets what was observed). Not judged: \`/__mock/*\` calls, the kit's own listeners, answers forced with \`Prefer\`. The profile \`certify\` answers one \`/v1\` request in every 5 to 9 with a 429 (at most ${MAX_INJECTED_429}; no rate-limit token spent), and follows each valid delivery with an exact duplicate ${DUPLICATE_AFTER_MS / 1000} s later and, once per subscription, deliveries signed with a wrong key, with 63 hexadecimal characters, with 64 characters that are not hexadecimal, and a valid event whose bytes differ from any re-serialisation (none stored as a notification). Under \`--redis\`, the replica that started them observes. ${TENANT_NOTE}`,
        security: TENANT_CREDENTIALS,
        body: StartBody.schema,
        response: { 201: jsonAnswer('Started.', Started), ...problemAnswers(...BODY_PROBLEMS, NO_TENANT) },
      },
      config: { fieldDetails: StartBody.details },
      preValidation: [scoped, parseJsonBody],
    },
    async (req, reply) => {
      // The schema checked each member; the run checks them again, as the in-process control does.
      const problem = startOptionsProblem(req.body);
      if (problem) return invalid(req, reply, problem.detail, problem.field);
      return send(reply, ok(201, startRun(tenantOf(req), req.body, clock.now()).started));
    },
  );

  admin.get(
    '/__mock/client-checks/report',
    {
      schema: {
        operationId: 'mockClientChecksReport',
        tags: [TAG.tenant],
        summary: 'The report of client checks so far',
        description: `Every check judged over what was observed so far, in the formats of \`opsapi conform\`; \`pending\` lists what the checks still wait for. ${TENANT_NOTE}`,
        security: TENANT_CREDENTIALS,
        querystring: ReportQuery.schema,
        response: {
          200: reportAnswer('The report.'),
          ...problemAnswers(INVALID_REQUEST, NO_TENANT, NONE_RUNNING),
        },
      },
      config: { fieldDetails: ReportQuery.details },
      preValidation: scoped,
    },
    async (req, reply) => {
      const tenant = tenantOf(req);
      const run = runOf(tenant);
      if (!run) return noneRunning(req, reply, tenant.org);
      return sendReport(req, reply, run, tenant.org, req.query.format ?? 'json', clock.now());
    },
  );

  admin.delete(
    '/__mock/client-checks',
    {
      schema: {
        operationId: 'mockStopClientChecks',
        tags: [TAG.tenant],
        summary: 'End client checks and read the final report',
        description: `Ends the checks of the tenant and answers the final report (JSON). ${TENANT_NOTE}`,
        security: TENANT_CREDENTIALS,
        response: { 200: jsonAnswer('The final report.', Report), ...problemAnswers(NO_TENANT, NONE_RUNNING) },
      },
      preValidation: scoped,
    },
    async (req, reply) => {
      const tenant = tenantOf(req);
      const run = endRun(tenant);
      if (!run) return noneRunning(req, reply, tenant.org);
      return sendReport(req, reply, run, tenant.org, 'json', clock.now());
    },
  );
}
