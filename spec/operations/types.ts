import type { TSchema } from '@sinclair/typebox';
import type { ListFieldTable } from '../lists/fields.js';
import type { ListExamples } from '../lists/examples.js';
import type { ErrorCode } from '../errors/index.js';
import type { LinkDef } from './links.js';
import { type Quote, type ReferenceSentence, referenceSentence } from '../reference/index.js';

/** The tags (domains) operations are grouped by. */
export type Tag = 'Access' | 'Notifications' | 'Events' | 'Items' | 'Maintenance' | 'Admin' | 'Planning' | 'Errors';

/** A fact with its provenance: a documented one quotes the reference's sentence, an inferred one carries its rationale. */
export type Sourced<T> = T &
  (
    | { provenance: 'documented'; quote: ReferenceSentence; rationale?: undefined }
    | { provenance: 'inferred'; rationale: string; quote?: undefined }
  );

/** A path parameter. */
export interface PathParam {
  readonly name: string;
  readonly description: string;
  readonly schema: TSchema;
  /** A value that makes the operation succeed against a fresh `demo` tenant of the mock (spec/examples/demo.ts). */
  readonly example: string;
  /** The row of the operation's table that gives the parameter, where there is one (else the operation's own quote). */
  readonly quote?: Quote;
}

/** An error response of an operation: its status and the catalog codes it can carry (none: a plain problem). */
export type ErrorResponse = Sourced<{
  readonly status: number;
  readonly codes: readonly ErrorCode[];
  readonly description: string;
}>;

/**
 * The success response of an operation. `schema` names a component; null for no body. `links` are the next calls a
 * client walks from it. The provenance is that of the status; `body` is the provenance of what the body is (the
 * schema, or no body), when it differs from the status's: the reference may give the body but not the status
 * ("Success status code: not shown"), and then any 2xx with that body meets the reference.
 */
export type SuccessResponse = Sourced<{
  readonly status: number;
  readonly schema: string | null;
  readonly description: string;
  readonly links?: Readonly<Record<string, LinkDef>>;
  readonly body?: Sourced<object>;
}>;

/** How a list/search operation takes its list parameters and which fields they may name. */
export interface ListSpec {
  /** Query string (GET lists) or JSON body (POST search). */
  readonly parametersIn: 'query' | 'body';
  /** Component name of the item. */
  readonly item: string;
  readonly fields: ListFieldTable;
  /** Whether `filterBy`/`sortBy` are accepted (the reference: "on some endpoints"). */
  readonly filterAndSort: boolean;
  readonly fieldsRationale: string;
  /** `filterBy`/`sortBy` examples naming this list's own fields (checked by `listExamples`). */
  readonly examples: ListExamples;
}

/** One operation of the contract: everything the document, the mock and the runner need. */
export type OperationDef = Sourced<{
  readonly operationId: string;
  readonly method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI path template, `/v1/...` with `{param}`. */
  readonly path: string;
  readonly tag: Tag;
  readonly summary: string;
  readonly description: string;
  /** The permission (or role) required; null when any authenticated caller may call it. */
  readonly permission: Sourced<{ readonly name: string | null }>;
  /** Whether the `X-Api-Key` credential is accepted here as the reference says (list requests) or by inference. */
  readonly apiKey: Sourced<object>;
  readonly pathParams: readonly PathParam[];
  /** Component name of the JSON request body, and a body that makes the operation succeed against a fresh `demo` tenant. */
  readonly requestBody?: Sourced<{ readonly schema: string; readonly description: string; readonly example: unknown }>;
  /**
   * Operations whose examples must run first, in order, in a fresh `demo` tenant for this operation's examples to
   * address something that exists (create-then-use); emitted as `x-example-requires`.
   */
  readonly exampleRequires?: readonly string[];
  readonly list?: ListSpec;
  readonly success: SuccessResponse;
  readonly errors: readonly ErrorResponse[];
}>;

/** Shorthand for a documented fact, quoting the sentence of the reference it rests on (spec/reference/). */
export function DOC(quote: Quote): { provenance: 'documented'; quote: ReferenceSentence } {
  return { provenance: 'documented', quote: referenceSentence(quote) };
}

/** Shorthand for an inferred fact with its rationale. */
export function INF(rationale: string): { provenance: 'inferred'; rationale: string } {
  return { provenance: 'inferred', rationale };
}
