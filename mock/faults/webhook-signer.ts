import type { FaultName } from './registry.js';
import type { Signer } from '../webhooks/signer.js';
import type { AttemptOutcome, DeliveryRequest, Transport } from '../webhooks/transport.js';

/**
 * Planted faults of webhook delivery (`--fault`), as decorators of the engine's signer and transport, so the
 * delivery engine itself never names a fault. Each breaks Authentication, point 5 of the reference (the signature
 * is 64 lowercase hex characters of the HMAC-SHA256 of the exact body sent) for the conformance runner's
 * `webhooks.signature` check to catch.
 */

/** The signer and transport of the engine. */
export interface WebhookParts {
  readonly signer: Signer;
  readonly transport: Transport;
}

/** `signature-uppercase-hex`: the right HMAC, sent in uppercase hex. */
function uppercaseHexSigner(inner: Signer): Signer {
  return { sign: (body, secret) => inner.sign(body, secret).toUpperCase() };
}

/**
 * `signature-reserialised`: the signature is made over the compact body, but the body sent is the same JSON
 * re-serialised (indented), so the signature does not match the bytes the receiver gets.
 */
function reserialisingTransport(inner: Transport): Transport {
  return {
    send: (request: DeliveryRequest): Promise<AttemptOutcome> =>
      inner.send({ ...request, body: reserialise(request.body) }),
    close: () => inner.close(),
  };
}

/** The parts with the webhook faults among `faults` applied; the very same parts when there are none. */
export function withWebhookFaults(parts: WebhookParts, faults: ReadonlySet<FaultName>): WebhookParts {
  const signer = faults.has('signature-uppercase-hex') ? uppercaseHexSigner(parts.signer) : parts.signer;
  const transport = faults.has('signature-reserialised') ? reserialisingTransport(parts.transport) : parts.transport;
  return { signer, transport };
}

/** The body parsed and serialised again with indentation; a body that is not JSON is sent unchanged. */
function reserialise(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
