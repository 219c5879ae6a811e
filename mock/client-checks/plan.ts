import { sign } from '../../common/signature.js';
import { hash53, streamOf } from '../../fixtures/seed/prng.js';
import type { DeliveryKind } from './trace.js';

/**
 * The perturbations of the profile `certify`, deterministic for a seed (docs/DESIGN.md, "Client certification"):
 * which `/v1` requests of the tenant get an injected 429, and which deliveries follow a faithful one. Pure: the mock
 * asks, and applies.
 */

/** Injected 429s per run, at most. */
export const MAX_INJECTED_429 = 20;
/** One request in every 5 to 9 (the gap drawn from the seed). */
const GAP = { min: 5, max: 9 };
/** The exact duplicate follows its delivery after this long. */
export const DUPLICATE_AFTER_MS = 1000;

/** The numbers (1 = the first `/v1` request since the checks started) of the requests answered with an injected 429. */
export function injected429Requests(seed: number): number[] {
  const rng = streamOf(String(seed), 'client-checks.429');
  const out: number[] = [];
  let at = 0;
  while (out.length < MAX_INJECTED_429) {
    at += rng.between(GAP.min, GAP.max);
    out.push(at);
  }
  return out;
}

/** A delivery the plan sends after a faithful one: its kind and how long after. */
interface PlannedDelivery {
  kind: Exclude<DeliveryKind, 'valid'>;
  afterMs: number;
}

/**
 * What follows the faithful delivery of a notification to a subscription the client made: always an exact duplicate
 * 1 s later; after the first notification of the subscription also a delivery signed with a wrong key, one whose
 * signature is 63 hexadecimal characters, one whose 64 characters are not hexadecimal (each naming an entity no
 * faithful delivery names), and a valid new event whose bytes differ from any re-serialisation; in an order and at
 * offsets (100 to 900 ms apart) drawn from the seed and the subscription's number in the run (1: the first perturbed).
 */
export function deliveriesAfter(
  seed: number,
  subscriptionNumber: number,
  firstOfSubscription: boolean,
): PlannedDelivery[] {
  const out: PlannedDelivery[] = [{ kind: 'duplicate', afterMs: DUPLICATE_AFTER_MS }];
  if (!firstOfSubscription) return out;
  const rng = streamOf(`${seed}\u0000${subscriptionNumber}`, 'client-checks.deliveries');
  const kinds: PlannedDelivery['kind'][] = ['wrong-key', 'hex-63', 'non-hex', 'raw-sensitive'];
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [kinds[i], kinds[j]] = [kinds[j] as PlannedDelivery['kind'], kinds[i] as PlannedDelivery['kind']];
  }
  let afterMs = DUPLICATE_AFTER_MS;
  for (const kind of kinds) {
    afterMs += rng.between(100, 900);
    out.push({ kind, afterMs });
  }
  return out;
}

/** The identifier a forged delivery names: one no faithful delivery names (a value no store holds). */
export function forgedEntityValue(seed: number, subscriptionNumber: number, kind: DeliveryKind): string {
  return `forged-${hash53(`${seed}\u0000${subscriptionNumber}\u0000${kind}`).toString(36)}`;
}

/** The wrong key of a run: never the tenant's secret (it is derived from the seed alone). */
function wrongKey(seed: number): string {
  return `wrong-key-${hash53(String(seed), 0x77)}`;
}

const NOT_HEX = 'ghijklmnopqrstuv';

/**
 * The `X-HMAC-Signature` of a forged delivery over its raw body: 64 lowercase hexadecimal characters of a wrong key,
 * the right signature cut to 63 characters, or the right signature with each character moved out of hexadecimal.
 */
export function forgedSignature(
  kind: 'wrong-key' | 'hex-63' | 'non-hex',
  rawBody: string,
  secret: string,
  seed: number,
): string {
  if (kind === 'wrong-key') return sign(rawBody, wrongKey(seed));
  const right = sign(rawBody, secret);
  if (kind === 'hex-63') return right.slice(0, 63);
  return right.replace(/[0-9a-f]/g, (c) => NOT_HEX[Number.parseInt(c, 16)] as string);
}

/**
 * The bytes of a valid event that no re-serialisation of its JSON gives back: indented, with `/` and every character
 * outside ASCII escaped, and the member `eventName` spelled with an escape (the same JSON value once parsed).
 */
export function rawSensitiveBody(payload: object): string {
  return JSON.stringify(payload, null, 2)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace('"eventName"', '"event\\u004eame"');
}
