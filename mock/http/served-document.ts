import type { OpenAPIObject, ServerObject } from 'openapi3-ts/oas31';

/**
 * The `servers` of a document as the mock serves it: first the origin the caller reached the mock at (so tools that
 * take `servers[0]`, Swagger UI's "Try it out" and generated clients call this mock, whatever its port), then the
 * document's own servers with their `base_url` variable defaulting to that origin (the contract's `{base_url}` stays
 * for tools that let the user point it elsewhere). Inferred: the reference names the base address `{base_url}` only.
 */
function serversFor(document: OpenAPIObject, origin: string): ServerObject[] {
  const own = (document.servers ?? []).map((server) => {
    const baseUrl = server.variables?.base_url;
    return baseUrl
      ? { ...server, variables: { ...server.variables, base_url: { ...baseUrl, default: origin } } }
      : server;
  });
  return [{ url: origin, description: 'This mock: the origin this document was requested from.' }, ...own];
}

/** A shallow copy of a document naming `origin` in its `servers` (the document itself is left as it is). */
export function withOrigin(document: OpenAPIObject, origin: string): OpenAPIObject {
  return { ...document, servers: serversFor(document, origin) };
}

/** Stands for the origin in the serialized document; a NUL never occurs in the contract's text. */
const PLACEHOLDER = '\u0000opsapi-origin\u0000';

/**
 * The document's JSON text for any origin, serialized once: each request only joins the pieces around the origin
 * (the contract is about 1 MB; serializing it per request would cost milliseconds of CPU each time).
 */
export function servedText(document: OpenAPIObject): (origin: string) => string {
  const escaped = JSON.stringify(PLACEHOLDER).slice(1, -1);
  const pieces = JSON.stringify(withOrigin(document, PLACEHOLDER)).split(escaped);
  return (origin) => pieces.join(JSON.stringify(origin).slice(1, -1));
}
