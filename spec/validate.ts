import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { documentResolver, unknownFields, type RefResolver } from './unknown-fields.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

const DOC_ID = 'opsapi:contract';

/** Outcome of validating a value against the contract. */
export type Validation = { ok: true } | { ok: false; errors: string[] };

/** A response as seen on the wire, for `validateResponse`. */
export interface ResponseSample {
  status: number;
  contentType: string | undefined;
  body: unknown;
}

function render(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map(
    (e) =>
      `${e.instancePath || '/'} ${e.message ?? e.keyword}${e.params && e.keyword !== 'enum' ? ` ${JSON.stringify(e.params)}` : ''}`,
  );
}

/**
 * Validators compiled once from the contract document (JSON Schema 2020-12, as OpenAPI 3.1 embeds it).
 * Used by the mock's tests and by the conformance runner: "every response validates against the contract".
 */
export class ContractValidator {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();
  private readonly resolve: RefResolver;

  constructor(readonly document: OpenAPIObject) {
    // validateSchema: false: the document is the contract itself, checked by the spec's own tests (openapi-parser);
    // checking it against the JSON Schema meta-schema at every start compiled that meta-schema, ~40 ms of each start.
    this.ajv = new Ajv2020({
      strict: false,
      allErrors: true,
      validateFormats: true,
      validateSchema: false,
      // No meta-schema either (nothing here validates a schema): ~5 ms of each start.
      meta: false,
    });
    addFormats(this.ajv);
    this.ajv.addSchema(document as object, DOC_ID);
    this.resolve = documentResolver(document);
  }

  /** Validator of a schema by JSON pointer inside the document (`#/components/schemas/Problem`). */
  private compile(pointer: string): ValidateFunction {
    let fn = this.cache.get(pointer);
    if (!fn) {
      fn = this.ajv.getSchema(`${DOC_ID}${pointer}`);
      if (!fn) throw new Error(`no schema at ${pointer}`);
      this.cache.set(pointer, fn);
    }
    return fn;
  }

  /** Validates a value against a named component schema. */
  validateSchema(name: string, value: unknown): Validation {
    const fn = this.compile(`#/components/schemas/${name}`);
    return fn(value) ? { ok: true } : { ok: false, errors: render(fn.errors) };
  }

  /**
   * The first error of a value against a named component schema, with the field it concerns, or null when valid.
   * Used for request bodies: the problem's `detail` and `parameters.field` name the field (DESIGN).
   */
  firstError(name: string, value: unknown): { field: string; message: string } | null {
    const fn = this.compile(`#/components/schemas/${name}`);
    if (fn(value)) return null;
    const e = (fn.errors ?? [])[0];
    if (!e) return { field: '', message: 'is invalid' };
    const params = e.params as Record<string, unknown>;
    const base = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const extra =
      typeof params.missingProperty === 'string'
        ? params.missingProperty
        : typeof params.additionalProperty === 'string'
          ? params.additionalProperty
          : '';
    const field = [base, extra].filter(Boolean).join('.');
    const message =
      e.keyword === 'required'
        ? 'is required'
        : e.keyword === 'additionalProperties'
          ? 'is not a known field'
          : e.keyword === 'minProperties'
            ? 'must name at least one field'
            : (e.message ?? 'is invalid');
    return { field, message };
  }

  /**
   * Validates a response of an operation: its status must be one the operation declares (or a generic error
   * problem: 404/405/413/415 without a code), its body must match the declared schema, and a body must come
   * with a JSON content type (`application/problem+json` or `application/json` for problems).
   */
  validateResponse(operationId: string, sample: ResponseSample): Validation {
    const found = this.findOperation(operationId);
    if (!found) return { ok: false, errors: [`unknown operation ${operationId}`] };
    const responses = (found.op.responses ?? {}) as Record<string, { content?: Record<string, { schema?: unknown }> }>;
    const declared = responses[String(sample.status)];
    if (!declared) {
      // Errors no operation can list (wrong method, oversized or non-JSON body) are plain problems.
      if (GENERIC_PROBLEM_STATUSES.includes(sample.status)) return this.validateProblem(sample);
      return {
        ok: false,
        errors: [
          `status ${sample.status} is not declared for ${operationId} (declared: ${Object.keys(responses).join(', ')})`,
        ],
      };
    }
    const content = declared.content;
    if (!content) {
      if (sample.body !== undefined && sample.body !== '' && sample.body !== null)
        return { ok: false, errors: [`status ${sample.status} must have no body`] };
      return { ok: true };
    }
    const mediaTypes = Object.keys(content);
    const isProblem = mediaTypes.includes('application/problem+json');
    const type = (sample.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const accepted = isProblem ? ['application/problem+json', 'application/json'] : mediaTypes;
    if (!accepted.includes(type))
      return { ok: false, errors: [`content type ${type || '(none)'} is not one of ${accepted.join(', ')}`] };
    const fn = this.compile(responsePointer(found, sample.status, mediaTypes[0] ?? ''));
    return fn(sample.body) ? { ok: true } : { ok: false, errors: render(fn.errors) };
  }

  /**
   * Members of a response body that the contract does not name, at any depth (`results[0].warehouseZone`). Response
   * objects are open where the reference says other fields are "not shown", so these pass `validateResponse`; the
   * runner lists them as information. Empty when the operation or status is unknown or declares no body.
   */
  unknownFields(operationId: string, sample: Pick<ResponseSample, 'status' | 'body'>): string[] {
    if (sample.body === undefined || sample.body === null || typeof sample.body !== 'object') return [];
    const found = this.findOperation(operationId);
    if (!found) return [];
    const responses = (found.op.responses ?? {}) as Record<string, { content?: Record<string, unknown> }>;
    const declared = responses[String(sample.status)];
    if (!declared)
      return GENERIC_PROBLEM_STATUSES.includes(sample.status) ? this.unknownFieldsOf('Problem', sample.body) : [];
    const mediaKey = Object.keys(declared.content ?? {})[0];
    if (mediaKey === undefined) return [];
    return unknownFields(this.resolve(responsePointer(found, sample.status, mediaKey)), sample.body, this.resolve);
  }

  /** Members of a value that a named component schema does not name, at any depth. */
  unknownFieldsOf(name: string, value: unknown): string[] {
    return unknownFields({ $ref: `#/components/schemas/${name}` }, value, this.resolve);
  }

  /** Validates a problem body and its content type. */
  validateProblem(sample: ResponseSample): Validation {
    const type = (sample.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (type !== 'application/problem+json' && type !== 'application/json')
      return { ok: false, errors: [`problem content type is ${type || '(none)'}`] };
    return this.validateSchema('Problem', sample.body);
  }

  private findOperation(
    operationId: string,
  ): { path: string; method: string; op: { responses?: unknown } } | undefined {
    for (const [path, item] of Object.entries(this.document.paths ?? {})) {
      for (const [method, op] of Object.entries(
        item as Record<string, { operationId?: string; responses?: unknown }>,
      )) {
        if (op && typeof op === 'object' && op.operationId === operationId) return { path, method, op };
      }
    }
    return undefined;
  }
}

/** Statuses of errors no operation can list (unknown route, wrong method, oversized or non-JSON body): plain problems. */
const GENERIC_PROBLEM_STATUSES = [404, 405, 413, 415];

/** JSON pointer of the body schema of one response of an operation. */
function responsePointer(found: { path: string; method: string }, status: number, mediaKey: string): string {
  return `#/paths/${escapePointer(found.path)}/${found.method}/responses/${status}/content/${escapePointer(mediaKey)}/schema`;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1').replace(/\{/g, '%7B').replace(/\}/g, '%7D');
}
