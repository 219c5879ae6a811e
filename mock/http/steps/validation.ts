import { Value } from '@sinclair/typebox/value';
import type { Answer } from '../../handlers/context.js';
import type { Exchange, OperationRoute, RequestStep } from '../exchange.js';

/** Path parameters outside their schema (1 to 200 characters): the operation's 400, or the 404 it declares instead. */
function pathParameters(x: Exchange, route: OperationRoute): Answer | undefined {
  for (const p of route.op.pathParams) {
    const value = x.params[p.name] ?? '';
    if (Value.Check(p.schema, value)) continue;
    // Operations that declare no 400 answer such a parameter with the 404 they declare: it addresses nothing.
    if (!route.declares400)
      return x.problem(
        'COMMON.ENTITY.NOT_FOUND',
        `Nothing is addressed by path parameter '${p.name}' (1 to 200 characters).`,
        { entity: p.name, id: String(value).slice(0, 200) },
      );
    return x.problem('COMMON.VALIDATION.ERROR', `Path parameter '${p.name}' is invalid (1 to 200 characters).`, {
      field: p.name,
    });
  }
  return undefined;
}

/**
 * The first member of a body holding a number beyond the double range (1e999 parses to Infinity, which the schema's
 * `number` accepts but JSON cannot carry back), if any.
 */
function nonFiniteField(body: Record<string, unknown>): string | undefined {
  for (const name in body) {
    const value = body[name];
    if (typeof value === 'number' && !Number.isFinite(value)) return name;
  }
  return undefined;
}

/** The JSON body, kept as text until now so an anonymous bad body still got its 401: parsed, then checked. */
function jsonBody(x: Exchange, route: OperationRoute): Answer | undefined {
  const { bodySchema } = route;
  if (!bodySchema) return undefined;
  const raw = x.req.body;
  if (typeof raw !== 'string' || raw.trim() === '')
    return x.problem('COMMON.VALIDATION.ERROR', 'The request needs a JSON body (Content-Type: application/json).', {
      field: '',
    });
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch (error) {
    return x.problem('COMMON.VALIDATION.ERROR', `The body is not valid JSON: ${(error as Error).message}`, {
      field: '',
    });
  }
  const invalid = route.services.validator.firstError(bodySchema, body);
  if (invalid) {
    const where = invalid.field ? `Field '${invalid.field}'` : 'The body';
    return x.problem('COMMON.VALIDATION.ERROR', `${where} ${invalid.message}.`, { field: invalid.field });
  }
  const nonFinite = nonFiniteField(body as Record<string, unknown>);
  if (nonFinite !== undefined)
    return x.problem('COMMON.VALIDATION.ERROR', `Field '${nonFinite}' must be a finite number.`, { field: nonFinite });
  x.body = body;
  x.req.parsedBody = body;
  return undefined;
}

/** Path and body validation (400, or 404 for a path parameter of an operation without a 400). */
export const validation: RequestStep = (x, route) => pathParameters(x, route) ?? jsonBody(x, route);
