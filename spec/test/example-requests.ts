import { request } from 'undici';
import type { OpenAPIObject } from 'openapi3-ts/oas31';

/**
 * Requests built from the examples of a contract document, and the runtime expressions of its links: what a
 * documentation-driven tool (Dredd, Schemathesis, a stateful fuzzer) does with the document, written small enough
 * to read. Only the forms the contract uses are supported; anything else throws, so an unsupported form added to
 * the contract fails the tests instead of being skipped.
 */

/** One operation of the document. */
export interface DocOperation {
  operationId: string;
  method: string;
  path: string;
  op: Record<string, any>;
  /** The one 2xx status the operation declares. */
  successStatus: number;
}

/** A request ready to send. */
interface ExampleRequest {
  method: string;
  /** Path with the query string. */
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** A response as the tests read it. */
export interface Answer {
  status: number;
  contentType: string | undefined;
  body: any;
  text: string;
}

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

/** Every operation of a document, in path order. */
export function docOperations(doc: OpenAPIObject): DocOperation[] {
  const out: DocOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = (item as Record<string, any>)[method];
      if (!op) continue;
      const success = Object.keys(op.responses).filter((s) => /^2\d\d$/.test(s));
      if (success.length !== 1) throw new Error(`${op.operationId} declares ${success.length} success statuses`);
      out.push({ operationId: op.operationId, method, path, op, successStatus: Number(success[0]) });
    }
  }
  return out;
}

/** The operation with this id. */
export function docOperation(doc: OpenAPIObject, operationId: string): DocOperation {
  const found = docOperations(doc).find((o) => o.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId}`);
  return found;
}

/** A parameter object with `$ref`s to `#/components/parameters/*` resolved. */
export function resolveParameter(doc: OpenAPIObject, p: Record<string, any>): Record<string, any> {
  if (typeof p.$ref !== 'string') return p;
  const name = p.$ref.replace('#/components/parameters/', '');
  const resolved = (doc.components?.parameters as Record<string, any> | undefined)?.[name];
  if (!resolved) throw new Error(`unresolved ${p.$ref}`);
  return resolved;
}

/** The example body of an operation's request, or undefined when it takes none. */
function bodyExample(op: DocOperation): unknown {
  const media = op.op.requestBody?.content?.['application/json'];
  return media ? media.example : undefined;
}

/**
 * The request of an operation built from its examples. `withOptional` adds the optional (query) parameters' examples;
 * without them a list answers in its default order. `values` overrides parameters by `in.name` or plain name.
 */
export function exampleRequest(
  doc: OpenAPIObject,
  op: DocOperation,
  options: { withOptional: boolean; values?: Record<string, unknown> } = { withOptional: true },
): ExampleRequest {
  const values = options.values ?? {};
  let path = op.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  const used = new Set<string>();
  for (const raw of op.op.parameters ?? []) {
    const p = resolveParameter(doc, raw);
    const key = [`${p.in}.${p.name}`, p.name].find((k) => k in values);
    if (key) used.add(key);
    if (!key && !p.required && !options.withOptional) continue;
    const value = key ? values[key] : p.example;
    if (value === undefined) throw new Error(`${op.operationId}: parameter ${p.name} has no example`);
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(String(value)));
    else if (p.in === 'query') query.set(p.name, String(value));
    else if (p.in === 'header') headers[p.name.toLowerCase()] = String(value);
    else throw new Error(`${op.operationId}: parameters in ${p.in} are not supported`);
  }
  // Values for parameters the operation does not declare: only headers (a security scheme's header, e.g. X-Api-Key).
  for (const [key, value] of Object.entries(values)) {
    if (used.has(key)) continue;
    const [where, ...rest] = key.split('.');
    if (where !== 'header' || rest.length === 0) throw new Error(`${op.operationId}: no parameter ${key}`);
    headers[rest.join('.').toLowerCase()] = String(value);
  }
  const body = bodyExample(op);
  const search = query.toString();
  return {
    method: op.method.toUpperCase(),
    url: `${path}${search ? `?${search}` : ''}`,
    headers,
    ...(body !== undefined ? { body } : {}),
  };
}

/**
 * Evaluates an OpenAPI runtime expression against a response. Supported: `$response.body#<JSON pointer>` (RFC 6901)
 * and `$response.header.<name>`; a constant (no leading `$`) is returned as is.
 */
export function evaluate(expression: string, response: { body: unknown; headers?: Record<string, string> }): unknown {
  if (!expression.startsWith('$')) return expression;
  const header = /^\$response\.header\.(.+)$/.exec(expression);
  if (header) return response.headers?.[(header[1] ?? '').toLowerCase()];
  const body = /^\$response\.body#(\/.*)?$/.exec(expression);
  if (!body) throw new Error(`unsupported runtime expression ${expression}`);
  let node: unknown = response.body;
  for (const token of (body[1] ?? '').split('/').slice(1)) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node))
      throw new Error(`${expression} addresses nothing in ${JSON.stringify(response.body).slice(0, 200)}`);
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Sends a request to a base URL: bearer token unless `token` is null, JSON body. Bounded by a 10 s timeout. */
export async function send(baseUrl: string, req: ExampleRequest, token: string | null): Promise<Answer> {
  const headers: Record<string, string> = { ...req.headers };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (req.body !== undefined) headers['content-type'] = 'application/json';
  const res = await request(`${baseUrl}${req.url}`, {
    method: req.method as 'GET',
    headers,
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
    ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
  });
  const text = await res.body.text();
  const contentType = res.headers['content-type'];
  return {
    status: res.statusCode,
    contentType: Array.isArray(contentType) ? contentType[0] : contentType,
    body: text ? JSON.parse(text) : undefined,
    text,
  };
}
