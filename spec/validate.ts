import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { type CoreSchema, documentedCore } from './documented-core.js';
import { documentResolver, unknownFields, type RefResolver } from './unknown-fields.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

const DOC_ID = 'opsapi:contract';

/** Outcome of validating a value against the contract. */
type Validation = { ok: true } | { ok: false; errors: string[] };

/** A response as seen on the wire, for `validateResponse`. */
export interface ResponseSample {
  status: number;
  contentType: string | undefined;
  body: unknown;
}

/**
 * What the API reference makes binding (MUST) for a response of an operation with a given status: see
 * `ContractValidator.responseCore`.
 */
interface ResponseCore {
  /** The status the reference gives; absent when it gives none, and any status of the response's class meets it. */
  readonly status?: number;
  /**
   * The body: the JSON pointer of the schema whose documented core it must match and the media types that may carry
   * it; `none` when the reference says there is no body; absent when the reference does not say what the body is.
   */
  readonly body?: { readonly pointer: string; readonly media: readonly string[] } | 'none';
  /** For an error: the codes the operation declares, each of which is an error of the request (a 4xx). */
  readonly declaredCodes?: ReadonlySet<string>;
}

/** Media types a problem may come in (Errors / Problem body says JSON; `application/problem+json` is inferred). */
const PROBLEM_MEDIA = ['application/problem+json', 'application/json'];

function mediaOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function hasBody(body: unknown): boolean {
  return body !== undefined && body !== '' && body !== null;
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
  private readonly coreCache = new Map<string, { schema: CoreSchema; fn: ValidateFunction }>();
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

  /** The documented core (spec/documented-core.ts) of the schema at a JSON pointer, compiled once. */
  private core(pointer: string): { schema: CoreSchema; fn: ValidateFunction } {
    let found = this.coreCache.get(pointer);
    if (!found) {
      const schema = documentedCore(this.resolve(pointer), this.resolve);
      found = { schema, fn: this.ajv.compile(schema as object) };
      this.coreCache.set(pointer, found);
    }
    return found;
  }

  /** The documented core of a named component schema, as a standalone JSON Schema (what the reference states of it). */
  coreSchema(name: string): CoreSchema {
    return this.core(`#/components/schemas/${name}`).schema;
  }

  /** Validates a value against the documented core of a named component schema. */
  validateCore(name: string, value: unknown): Validation {
    const { fn } = this.core(`#/components/schemas/${name}`);
    return fn(value) ? { ok: true } : { ok: false, errors: render(fn.errors) };
  }

  /** Validates a value against a named component schema. */
  validateSchema(name: string, value: unknown): Validation {
    const fn = this.compile(`#/components/schemas/${name}`);
    return fn(value) ? { ok: true } : { ok: false, errors: render(fn.errors) };
  }

  /**
   * The first error of a value against a named component schema, with the field it concerns, or null when valid.
   * Used for request bodies: the problem's `detail` and `parameters.field` name the field (docs/DESIGN.md, "Defaults for what the reference leaves open").
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
   * Validates a response of an operation against the whole contract (the SHOULD part; `validateResponseCore` is the
   * MUST part): its status must be one the operation declares (or a generic error
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
   * What the API reference makes binding (MUST) for a response of an operation with this status, read from the marks
   * of the document; undefined when it makes nothing binding (the whole contract, `validateResponse`, is a SHOULD):
   * - a 2xx: the operation's success response, whatever status the document gives it. Its status binds only when
   *   documented (`x-provenance`); otherwise any 2xx meets the reference. Its body binds when `x-body-provenance` is
   *   documented: the documented core of its schema, or no body at all (`x-no-body`).
   * - a status of 400 or more: "Error responses follow the Errors part" (Endpoints): a JSON problem matching the
   *   documented core of `Problem`; a code the operation declares is an error of the request, so a 4xx (which one is
   *   a SHOULD, except for the pairs the reference shows).
   * - any other status: nothing.
   */
  responseCore(operationId: string, status: number): ResponseCore | undefined {
    const found = this.findOperation(operationId);
    if (!found) return undefined;
    const responses = (found.op.responses ?? {}) as Record<string, Record<string, unknown>>;
    if (status >= 400) {
      const declaredCodes = new Set(
        Object.values(responses).flatMap((r) => (Array.isArray(r['x-error-codes']) ? r['x-error-codes'] : [])),
      );
      return { body: { pointer: '#/components/schemas/Problem', media: PROBLEM_MEDIA }, declaredCodes };
    }
    if (status < 200 || status > 299) return undefined;
    const key = Object.keys(responses).find((k) => /^2\d\d$/.test(k));
    const success = key === undefined ? undefined : responses[key];
    if (key === undefined || !success) return undefined;
    const statusDocumented = success['x-provenance'] === 'documented';
    if (!statusDocumented && success['x-body-provenance'] !== 'documented') return undefined;
    const content = (success.content ?? {}) as Record<string, unknown>;
    const media = Object.keys(content);
    const body =
      success['x-body-provenance'] !== 'documented'
        ? undefined
        : media.length === 0
          ? ('none' as const)
          : { pointer: responsePointer(found, Number(key), media[0] ?? ''), media };
    return { ...(statusDocumented ? { status: Number(key) } : {}), ...(body ? { body } : {}) };
  }

  /**
   * Validates a response against what the API reference makes binding for it (`responseCore`): the MUST part of the
   * contract. Undefined when the reference makes nothing of this response binding. Fields and keywords the contract
   * infers, other members, and which 2xx or 4xx is answered (where the reference does not give it) are judged by
   * `validateResponse` only.
   */
  validateResponseCore(operationId: string, sample: ResponseSample): Validation | undefined {
    const core = this.responseCore(operationId, sample.status);
    if (!core) return undefined;
    const errors: string[] = [];
    if (core.status !== undefined && core.status !== sample.status)
      errors.push(`status ${sample.status} is not the ${core.status} the reference gives ${operationId}`);
    if (core.body === 'none') {
      if (hasBody(sample.body)) errors.push(`the reference gives ${operationId} no response body; this one has one`);
    } else if (core.body) {
      const type = mediaOf(sample.contentType);
      if (!core.body.media.includes(type))
        errors.push(`content type ${type || '(none)'} is not one of ${core.body.media.join(', ')}`);
      else {
        const { fn } = this.core(core.body.pointer);
        if (!fn(sample.body)) errors.push(...render(fn.errors));
      }
    }
    const code = (sample.body as { code?: unknown } | null | undefined)?.code;
    if (sample.status >= 500 && typeof code === 'string' && core.declaredCodes?.has(code))
      errors.push(
        `${code} is an error of the request that ${operationId} declares with a 4xx; answered ${sample.status}`,
      );
    return errors.length === 0 ? { ok: true } : { ok: false, errors };
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
