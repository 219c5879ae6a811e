import type { Clock } from '../../clock.js';
import type { AttemptOutcome, DeliveryRequest, Transport } from '../transport.js';

/** How the fake receiver answers one request: an HTTP status, or a failure without a response. */
export type Answer =
  | { readonly status: number; readonly body?: string }
  | { readonly error: 'Timeout' | 'ConnectionError' };

/** A transport without sockets: records every request and answers as the test says, at once unless told otherwise. */
export class FakeTransport implements Transport {
  readonly requests: DeliveryRequest[] = [];
  closed = false;
  /** The answer to the request of index `index` (0-based, over all requests). */
  answer: (request: DeliveryRequest, index: number) => Answer | Promise<Answer> = () => ({ status: 200 });

  constructor(private readonly clock: Clock) {}

  async send(request: DeliveryRequest): Promise<AttemptOutcome> {
    const index = this.requests.push(request) - 1;
    const startedAtMs = this.clock.now();
    const answer = await this.answer(request, index);
    const endedAtMs = this.clock.now();
    if ('error' in answer)
      return {
        success: false,
        responseStatus: null,
        responseBodyExcerpt: null,
        errorKind: answer.error,
        startedAtMs,
        endedAtMs,
      };
    const success = answer.status >= 200 && answer.status < 300;
    return {
      success,
      responseStatus: answer.status,
      responseBodyExcerpt: answer.body ?? '',
      errorKind: success ? null : 'HttpStatus',
      startedAtMs,
      endedAtMs,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
