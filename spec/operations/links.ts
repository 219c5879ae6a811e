/**
 * OpenAPI links: the next call a client (or a stateful fuzzer) walks from a success response, with the
 * identifiers taken from that response by runtime expressions (`$response.body#/id`).
 */
export interface LinkDef {
  /** The operation called next. */
  readonly operationId: string;
  /**
   * Values of the next call's parameters, by name (qualified by location where it helps: `path.id`,
   * `header.X-Api-Key`): runtime expressions or constants. Parameters not named here come from the caller.
   */
  readonly parameters: Readonly<Record<string, string>>;
  readonly description: string;
}

/** Provenance of every link (inferred): the reference describes the operations one by one. */
const LINK_RATIONALE =
  'The reference describes each operation on its own, not how a client walks between them; a link names which identifier of a response addresses the next call (for the subscription id, Resources / Webhook subscription says it is "used in the DELETE path").';

/** The id of the first item of a page (`results/0`). */
export const FIRST_RESULT_ID = '$response.body#/results/0/id';

/** A link to `operationId` with its parameters. */
export function link(operationId: string, parameters: Record<string, string>, description: string): LinkDef {
  return { operationId, parameters, description };
}

/** The OpenAPI `links` of a response, each marked inferred. */
export function buildLinks(links: Readonly<Record<string, LinkDef>>): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(links).map(([name, l]) => [
      name,
      {
        operationId: l.operationId,
        parameters: { ...l.parameters },
        description: l.description,
        'x-provenance': 'inferred',
        'x-rationale': LINK_RATIONALE,
      },
    ]),
  );
}
