import { expected } from '../contract/decided.js';
import { RFC9110_401_TYPE } from '../../spec/schemas/problem.js';
import { judge401NoCode, judge401Type, judge401TypeForm } from '../rules/problems.js';
import type { OperationDef } from '../../spec/operations/index.js';
import type { Credential, Exchange } from '../wire/client.js';
import { label, operations, probePath } from '../contract/contract.js';
import type { CheckContext, CheckDef } from '../context.js';
import { problemOf } from '../helpers.js';

/** A JWT-shaped token with a signature nobody issued. */
const FORGED_JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJvcmciOiJjb25mb3JtLWZvcmdlZCIsImV4cCI6NDEwMjQ0NDgwMH0.Zm9yZ2VkLXNpZ25hdHVyZS1mb3ItY29uZm9ybWFuY2U';

const VARIANTS: { name: string; auth: Credential }[] = [
  { name: 'no credentials', auth: 'none' },
  { name: 'a malformed bearer token', auth: { headers: { authorization: 'Bearer not-a-jwt' } } },
  { name: 'a forged bearer token', auth: { headers: { authorization: `Bearer ${FORGED_JWT}` } } },
  { name: 'an unknown API key', auth: { headers: { 'x-api-key': 'conform-unknown-api-key-0000' } } },
];

interface AnonymousAnswer {
  op: OperationDef;
  variant: string;
  ex: Exchange;
}

/** Every operation with each kind of missing or bad credentials (memoised: the 401 checks share it). */
function anonymousAnswers(c: CheckContext): Promise<AnonymousAnswer[]> {
  return c.run.memo('auth:anonymous', async () =>
    Promise.all(
      operations().flatMap((op) =>
        VARIANTS.map(async (v) => ({
          op,
          variant: v.name,
          // Bodies are `{}`: were authentication skipped, validation would still refuse them.
          ex: await c.run.client.send('shared', {
            method: op.method.toUpperCase() as 'GET',
            path: probePath(op),
            auth: v.auth,
            ...(op.requestBody ? { json: {} } : {}),
          }),
        })),
      ),
    ),
  );
}

/** Operations without a request body: probing them with a valid token changes nothing (their probe ids do not exist). */
function bodylessOperations(): OperationDef[] {
  return operations().filter((op) => !op.requestBody);
}

/** The main bearer token of the run; the checks of `x-with-bearer` need one (an API-key-only run has none). */
function mainToken(c: CheckContext): string {
  const token = c.run.credentials.main;
  if (!token) c.skip('needs a bearer token (--token): the rule is about X-Api-Key sent beside one');
  return token;
}

function send(c: CheckContext, op: OperationDef, headers: Record<string, string>): Promise<Exchange> {
  return c.send({ method: op.method.toUpperCase() as 'GET', path: probePath(op), auth: { headers } });
}

function each401(c: CheckContext, answers: AnonymousAnswer[], test: (a: AnonymousAnswer) => void): void {
  for (const a of answers) {
    if (a.ex.status !== 401) {
      c.cannot(`${label(a.op)} with ${a.variant} answered ${a.ex.status}, not 401`);
      continue;
    }
    c.exercised(label(a.op));
    test(a);
  }
}

export function authChecks(): CheckDef[] {
  return [
    {
      id: 'auth.401-no-credentials',
      title: 'Every operation refuses a request without credentials with 401',
      family: 'auth',
      clause: 'Authentication, point 3',
      level: 'MUST',
      async run(c) {
        for (const a of await anonymousAnswers(c)) {
          if (a.variant !== 'no credentials') continue;
          c.exercised(label(a.op));
          c.expect(a.ex.status === 401, `${label(a.op)} without credentials`, a.ex, '401', String(a.ex.status));
        }
      },
    },
    {
      id: 'auth.401-invalid-credentials',
      title: 'Every operation refuses malformed, forged and unknown credentials with 401',
      family: 'auth',
      clause: 'Authentication, points 1-3',
      level: 'MUST',
      async run(c) {
        for (const a of await anonymousAnswers(c)) {
          if (a.variant === 'no credentials') continue;
          c.exercised(label(a.op));
          c.expect(a.ex.status === 401, `${label(a.op)} with ${a.variant}`, a.ex, '401', String(a.ex.status));
        }
      },
    },
    {
      id: 'auth.401-no-code',
      title: 'The 401 problem carries no `code`',
      family: 'auth',
      clause: 'Authentication, point 3; Errors / Status and code pairs (401: no code)',
      level: 'MUST',
      async run(c) {
        each401(c, await anonymousAnswers(c), (a) => c.findings(judge401NoCode(a.ex).list, a.ex, `with ${a.variant}`));
      },
    },
    {
      id: 'auth.401-type',
      title: 'The 401 problem `type` is an address of the RFC 9110 section on 401',
      family: 'auth',
      clause: 'Errors / Problem body (type of the plain 401)',
      level: 'MUST',
      async run(c) {
        each401(c, await anonymousAnswers(c), (a) => c.findings(judge401Type(a.ex).list, a.ex, `with ${a.variant}`));
      },
    },
    {
      id: 'auth.401-type-form',
      title: 'The 401 problem `type` is spelled as the contract spells the RFC 9110 address',
      family: 'auth',
      clause: 'Errors / Problem body (type of the plain 401; the exact spelling of the address is not given)',
      level: 'SHOULD',
      async run(c) {
        each401(c, await anonymousAnswers(c), (a) =>
          c.findings(
            judge401TypeForm(a.ex, expected<'problem-401-type'>(c.run, 'problem-401-type', RFC9110_401_TYPE)).list,
            a.ex,
            `with ${a.variant}`,
          ),
        );
      },
    },
    {
      id: 'auth.401-problem',
      title: 'The 401 answer is a problem body with status 401',
      family: 'auth',
      clause: 'Authentication, point 3; Errors / Problem body',
      level: 'MUST',
      async run(c) {
        each401(c, await anonymousAnswers(c), (a) => {
          const body = problemOf(a.ex);
          const ok =
            !!body &&
            body.status === 401 &&
            typeof body.title === 'string' &&
            typeof body.detail === 'string' &&
            typeof body.instance === 'string';
          c.expect(
            ok,
            `${label(a.op)} with ${a.variant}: not a 401 problem body`,
            a.ex,
            '{type, title, status: 401, detail, instance}',
            a.ex.text.slice(0, 200),
          );
        });
      },
    },
    {
      // What clients generated from the contract send (@hey-api/openapi-ts with `auth: () => token`): one token in both headers.
      id: 'auth.key-repeating-bearer',
      title: 'A bearer token repeated in X-Api-Key is accepted like the bearer token alone',
      family: 'auth',
      clause: "Authentication, points 1-2; the contract's ApiKey scheme, x-with-bearer (inferred)",
      level: 'SHOULD',
      requires: ['token'],
      async run(c) {
        const token = mainToken(c);
        for (const op of bodylessOperations()) {
          const alone = await send(c, op, { authorization: `Bearer ${token}` });
          if (alone.status === 401) {
            c.cannot(`${label(op)} refused the bearer token alone (401)`);
            continue;
          }
          const twice = await send(c, op, { authorization: `Bearer ${token}`, 'x-api-key': token });
          c.exercised(label(op));
          if (expected<'key-repeating-bearer'>(c.run, 'key-repeating-bearer', 'accepted') === 'refused') {
            c.expect(
              twice.status === 401,
              `${label(op)} with the bearer token also in X-Api-Key`,
              twice,
              '401 (observed)',
              String(twice.status),
            );
            continue;
          }
          c.expect(
            twice.status === alone.status,
            `${label(op)} with the bearer token also in X-Api-Key`,
            twice,
            `${alone.status}, as with the bearer token alone`,
            String(twice.status),
          );
        }
      },
    },
    {
      id: 'auth.401-other-key-with-bearer',
      title: 'A valid bearer token with a different, unknown X-Api-Key is refused with the plain 401',
      family: 'auth',
      clause: "Authentication, points 2-3; the contract's ApiKey scheme, x-with-bearer (inferred)",
      level: 'SHOULD',
      requires: ['token'],
      async run(c) {
        const token = mainToken(c);
        for (const op of bodylessOperations()) {
          const ex = await send(c, op, {
            authorization: `Bearer ${token}`,
            'x-api-key': 'conform-unknown-api-key-0000',
          });
          c.exercised(label(op));
          const body = problemOf(ex);
          if (expected<'other-api-key-with-bearer'>(c.run, 'other-api-key-with-bearer', 'refused') === 'ignored') {
            // Observed at the deployment (--decisions): the key is ignored when a bearer token comes with it.
            c.expect(
              ex.status !== 401,
              `${label(op)} with a valid bearer token and an unknown X-Api-Key`,
              ex,
              'anything but 401 (the key ignored, as observed)',
              String(ex.status),
            );
            continue;
          }
          c.expect(
            ex.status === 401 && body !== undefined && !('code' in body),
            `${label(op)} with a valid bearer token and an unknown X-Api-Key`,
            ex,
            '401 without `code`',
            `${ex.status}${body && 'code' in body ? ` code ${String(body.code)}` : ''}`,
          );
        }
      },
    },
  ];
}
