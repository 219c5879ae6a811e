import { Type, type Static } from '@sinclair/typebox';
import { documented, inferred } from '../provenance.js';

/** Where the plain 401 points its `type` (Errors / Problem body: "the address of the HTTP semantics RFC 9110 section on 401"). */
export const RFC9110_401_TYPE = 'https://www.rfc-editor.org/rfc/rfc9110#section-15.5.2';

/** The problem body (Errors / Problem body). */
export const Problem = Type.Object(
  {
    type: Type.String({
      minLength: 1,
      description: 'for coded errors `{base_url}/errors/<code>`; for the plain 401 the RFC 9110 section on 401',
      ...documented,
    }),
    title: Type.String({ description: 'short title', ...documented }),
    status: Type.Integer({ minimum: 400, maximum: 599, description: 'HTTP status (equal to the response status)', ...documented }),
    detail: Type.String({ description: 'explanation', ...documented }),
    instance: Type.String({ pattern: '^[A-Z]+ /', description: '`<METHOD> <request path>` of the failed request', ...documented }),
    code: Type.Optional(
      Type.Unsafe<string>({
        $ref: '#/components/schemas/ErrorCode',
        description: 'error code; absent on the plain 401 and on errors no catalog code names',
        ...documented,
      }),
    ),
    parameters: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'the parameters of the code (present on the 429 body, where it is an empty object)',
        ...documented,
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Error body. Sent as `application/problem+json` (inferred; the reference says only "JSON", so clients and the conformance runner accept `application/json` too).',
    ...documented,
  },
);
export type Problem = Static<typeof Problem>;

/** Rationale for errors that no catalog code names (unknown route, 405, 413, 415). */
export const UNCODED_PROBLEM_RATIONALE = inferred(
  'The reference shows only the plain 401 without a code; errors that no catalog code names (unknown route, wrong method, oversized or non-JSON body) follow the same shape without `code`.',
);
