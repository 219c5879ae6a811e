import { Type, type Static } from '@sinclair/typebox';
import { documented, factMarks, inferred, inferredKeyword } from '../provenance.js';
import { openObject } from './open.js';

/**
 * Where the plain 401 points its `type`: the contract's own spelling (inferred). The reference describes the address
 * ("the address of the HTTP semantics RFC 9110 section on 401") without spelling it: see `isRfc9110Section401Address`.
 */
export const RFC9110_401_TYPE = 'https://www.rfc-editor.org/rfc/rfc9110#section-15.5.2';

/**
 * The addresses that identify RFC 9110 section 15.5.2 (401 Unauthorized), each with `http` or `https`: the RFC
 * Editor's rendering (with or without `.html`), the IETF Datatracker's, and the HTTP Working Group's.
 */
export const RFC9110_401_FORMS = [
  'https://www.rfc-editor.org/rfc/rfc9110#section-15.5.2',
  'https://www.rfc-editor.org/rfc/rfc9110.html#section-15.5.2',
  'https://datatracker.ietf.org/doc/html/rfc9110#section-15.5.2',
  'https://httpwg.org/specs/rfc9110.html#status.401',
] as const;

/**
 * Whether a URL is an address of RFC 9110 section 15.5.2, as the documented 401 `type` is: one of
 * `RFC9110_401_FORMS` over http or https (scheme and host compared without case, as URLs compare them).
 */
export function isRfc9110Section401Address(url: string): boolean {
  const parts = /^https?:\/\/([^/?#]+)(.*)$/i.exec(url);
  if (!parts) return false;
  return (RFC9110_401_FORMS as readonly string[]).includes(
    `https://${(parts[1] ?? '').toLowerCase()}${parts[2] ?? ''}`,
  );
}

/**
 * The `type` rule of the plain 401 as the document states it (`x-problem-type` of every 401 response): the accepted
 * addresses are documented, the address the contract sends (`preferred`) is inferred.
 */
export function plain401Type(): Record<string, unknown> {
  return {
    description:
      'The `type` of the plain 401: an address of RFC 9110 section 15.5.2, one of `addresses` over http or https (documented); the contract sends `preferred` (inferred).',
    addresses: [...RFC9110_401_FORMS],
    ...documented('errors.problem.type'),
    preferred: RFC9110_401_TYPE,
    ...factMarks(
      {
        provenance: 'inferred',
        rationale:
          "The reference names the section, not its address; the RFC Editor's address is the RFC's canonical one.",
      },
      'preferred',
    ),
  };
}

/**
 * The shape of every code of the catalog, `PREFIX.PART.SUFFIX` in capitals (Errors / Error code catalog: "the prefix
 * (ending with a dot) followed by a suffix"). A problem may carry a code of this shape the catalog does not list.
 */
const ERROR_CODE_PATTERN = '^[A-Z][A-Z0-9_]*(\\.[A-Z0-9_]+)+$';

/** The problem body (Errors / Problem body). */
export const Problem = Type.Object(
  {
    type: Type.String({
      ...inferredKeyword(
        'minLength',
        1,
        'The reference gives an address for every `type`; an empty one names nothing.',
      ),
      description:
        'for coded errors `{base_url}/errors/<code>`; for the plain 401 an address of the RFC 9110 section on 401 (see `x-problem-type` of the 401 responses)',
      ...documented('errors.problem.type'),
    }),
    title: Type.String({ description: 'short title', ...documented('errors.problem.title') }),
    status: Type.Integer({
      ...inferredKeyword(
        'minimum',
        400,
        'The reference says "HTTP status"; a problem reports an error, and HTTP error statuses are 400 to 599 (RFC 9110, section 15).',
      ),
      ...inferredKeyword('maximum', 599, 'HTTP error statuses are 400 to 599 (RFC 9110, section 15).'),
      description: 'HTTP status (equal to the response status)',
      ...documented('errors.problem.status'),
    }),
    detail: Type.String({ description: 'explanation', ...documented('errors.problem.detail') }),
    instance: Type.String({
      ...inferredKeyword(
        'pattern',
        '^[A-Z]+ /',
        'The reference gives the shape `<METHOD> <request path>`; the pattern spells it as an upper-case method, a space and a path from the root.',
      ),
      description: '`<METHOD> <request path>` of the failed request',
      ...documented('errors.problem.instance'),
    }),
    code: Type.Optional(
      Type.Unsafe<string>({
        // A string, as the reference types it; known values listed first (tools show the enum), then any code of the
        // catalog's shape: an unknown code is not a schema failure.
        type: 'string',
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
        ...documented('errors.problem.code'),
      }),
    ),
    parameters: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'the parameters of the code (present on the 429 body, where it is an empty object)',
        ...documented('errors.problem.parameters'),
      }),
    ),
  },
  {
    ...openObject(
      'Errors / Problem body lists seven members; RFC 9457 (section 3.2) allows extension members, and "Field-level detail of validation errors: not shown".',
    ),
    description:
      'Error body. Sent as `application/problem+json` (inferred; the reference says only "JSON", so clients and the conformance runner accept `application/json` too).',
    ...documented('errors.problem'),
  },
);
export type Problem = Static<typeof Problem>;
