import { sign } from '../../common/signature.js';

/**
 * Computes the `X-HMAC-Signature` value of a body. Injected into the engine so the delivery code never decides
 * how a signature is made; a planted fault can wrap it (see mock/faults/webhook-signer.ts).
 */
export interface Signer {
  sign(body: string, secret: string): string;
}

/** The signer of the reference (Authentication, point 5): HMAC-SHA256 of the exact body, 64 lowercase hex characters. */
export const hmacSigner: Signer = { sign: (body, secret) => sign(body, secret) };
