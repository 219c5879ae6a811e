import { Type, type Static } from '@sinclair/typebox';
import { documented, inferred } from '../provenance.js';
import { openObject } from './open.js';

/** Where the plain 401 points its `type` (Errors / Problem body: "the address of the HTTP semantics RFC 9110 section on 401"). */
export const RFC9110_401_TYPE = 'https://www.rfc-editor.org/rfc/rfc9110#section-15.5.2';

/**
 * The shape of every code of the catalog, `PREFIX.PART.SUFFIX` in capitals (Errors / Error code catalog: "the prefix
 * (ending with a dot) followed by a suffix"). A problem may carry a code of this shape the catalog does not list.
 */
export const ERROR_CODE_PATTERN = '^[A-Z][A-Z0-9_]*(\\.[A-Z0-9_]+)+$';

/** The problem body (Errors / Problem body). */
export const Problem = Type.Object(
  {
    type: Type.String({
      minLength: 1,
      description: 'for coded errors `{base_url}/errors/<code>`; for the plain 401 the RFC 9110 section on 401',
      ...documented,
    }),
    title: Type.String({ description: 'short title', ...documented }),
    status: Type.Integer({
      minimum: 400,
      maximum: 599,
      description: 'HTTP status (equal to the response status)',
      ...documented,
    }),
    detail: Type.String({ description: 'explanation', ...documented }),
    instance: Type.String({
      pattern: '^[A-Z]+ /',
      description: '`<METHOD> <request path>` of the failed request',
      ...documented,
    }),
    code: Type.Optional(
      Type.Unsafe<string>({
        // Known values listed first (tools show the enum), then any code of the catalog's shape: an unknown code is not a schema failure.
        anyOf: [
          { $ref: '#/components/schemas/ErrorCode' },
          {
            type: 'string',
            pattern: ERROR_CODE_PATTERN,
            description: "a code of the catalog's shape that the catalog does not list",
            ...inferred(
              'Errors / Error code catalog lists the codes this reference knows ("Status codes of all other error codes: not shown"); a server may answer a code added after it, so any code of the catalog\'s shape is accepted and the conformance runner lists it as information.',
            ),
          },
        ],
        description:
          'error code (one of the catalog, see ErrorCode); absent on the plain 401 and on errors no catalog code names',
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
    ...openObject(
      'Errors / Problem body lists seven members; RFC 9457 (section 3.2) allows extension members, and "Field-level detail of validation errors: not shown".',
    ),
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
