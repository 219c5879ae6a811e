/**
 * Webhook signatures (reference, Authentication, point 5).
 *
 * The service signs the serialized JSON body of each notification with HMAC-SHA256 using the webhook
 * secret and sends the signature as 64 lowercase hexadecimal characters in the `X-HMAC-Signature`
 * header. A receiver computes the HMAC-SHA256 of the raw body exactly as received, hex-encodes it, and
 * compares it with the header in constant time.
 *
 * This module is the receiver side (`verifySignature`) and the sender side (`sign`) in one place; it
 * depends on `node:crypto` only. Typical use in a receiver:
 *
 * ```ts
 * import { SIGNATURE_HEADER, verifySignature } from 'opsapi/receiver';
 *
 * // `rawBody` is the request body as received (a Buffer or the undecoded string), not parsed JSON.
 * if (!verifySignature(rawBody, request.headers[SIGNATURE_HEADER.toLowerCase()], secret)) {
 *   return reply.code(401).send();
 * }
 * const notification = JSON.parse(rawBody.toString('utf8'));
 * ```
 *
 * Verify the raw bytes: parsing the JSON and serialising it again (`JSON.stringify(JSON.parse(body))`)
 * changes whitespace, key order or escapes (`\u00e9` becomes `é`) and the signature no longer matches.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Header carrying the signature: 64 lowercase hexadecimal characters. */
export const SIGNATURE_HEADER = 'X-HMAC-Signature';

/** Header carrying the identifier of the notification (use it to drop duplicate deliveries). */
export const EVENT_ID_HEADER = 'X-Event-Id';

/**
 * The only accepted form of a signature: exactly 64 lowercase hexadecimal characters.
 *
 * The service always sends lowercase. Uppercase hex is rejected on purpose: a strict receiver notices a
 * sender that deviates from the contract (a misconfigured proxy, a home-made signer) instead of silently
 * accepting it, and the mock's conformance checks rely on that strictness. Surrounding whitespace,
 * prefixes such as `sha256=` and any other encoding (base64) are rejected for the same reason.
 */
const SIGNATURE_PATTERN = /^[0-9a-f]{64}$/;

function hmac(rawBody: string | Uint8Array, secret: string): Buffer {
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new TypeError('The webhook secret must be a non-empty string.');
  }
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new TypeError(
      'The body to sign or verify must be the raw request body (a string or a Uint8Array/Buffer), not parsed JSON.',
    );
  }
  // Strings are hashed as their UTF-8 bytes, the encoding of the JSON bodies the service sends.
  return createHmac('sha256', secret).update(rawBody).digest();
}

/**
 * Signs a body: HMAC-SHA256 of `rawBody` with `secret`, as 64 lowercase hexadecimal characters
 * (the value of the `X-HMAC-Signature` header).
 *
 * @param rawBody the exact bytes sent; a string is taken as its UTF-8 encoding (a string with unpaired
 *   surrogates is not valid UTF-8 and is encoded lossily: sign bytes in that case).
 * @param secret the webhook secret (non-empty); its UTF-8 bytes are the HMAC key.
 * @throws TypeError when the secret is empty or the body is neither a string nor bytes.
 */
export function sign(rawBody: string | Uint8Array, secret: string): string {
  return hmac(rawBody, secret).toString('hex');
}

/**
 * Verifies the `X-HMAC-Signature` header of a notification.
 *
 * Returns `true` only when the header is exactly 64 lowercase hexadecimal characters equal to the
 * HMAC-SHA256 of `rawBody` with `secret`; the comparison of the 32 decoded bytes is constant-time
 * (`crypto.timingSafeEqual`). Returns `false` for a missing header, an empty one, a header repeated with
 * different values (an array of more than one element; a one-element array is read as its element),
 * uppercase hex, any other length or character, and a signature of another body or secret.
 *
 * @param rawBody the body exactly as received (Buffer, Uint8Array, or the undecoded string): do not
 *   re-serialise parsed JSON.
 * @param header the header value as a Node HTTP server exposes it (`request.headers['x-hmac-signature']`).
 * @param secret the webhook secret (non-empty).
 * @throws TypeError when the secret is empty or the body is neither a string nor bytes: those are
 *   programming errors, not bad requests, and must not pass silently.
 */
export function verifySignature(
  rawBody: string | Uint8Array,
  header: string | string[] | undefined | null,
  secret: string,
): boolean {
  const expected = hmac(rawBody, secret);
  const value = Array.isArray(header) ? (header.length === 1 ? header[0] : undefined) : header;
  if (typeof value !== 'string' || !SIGNATURE_PATTERN.test(value)) return false;
  const received = Buffer.from(value, 'hex');
  return received.length === expected.length && timingSafeEqual(received, expected);
}
