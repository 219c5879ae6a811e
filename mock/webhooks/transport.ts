/** What one HTTP delivery attempt produced. */
export interface AttemptOutcome {
  readonly success: boolean;
  readonly responseStatus: number | null;
  readonly responseBodyExcerpt: string | null;
  readonly errorKind: 'HttpStatus' | 'Timeout' | 'ConnectionError' | 'BlockedEndpoint' | null;
  /** Real time the request was sent (after any wait for a delivery slot). */
  readonly startedAtMs: number;
  readonly endedAtMs: number;
}

/** One webhook request to send: the exact bytes of the body and every header, the signature included. */
export interface DeliveryRequest {
  readonly endpoint: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Sends webhook requests. The engine only sees outcomes, never sockets, so it can be driven in a test by a fake
 * that answers at once. `send` never rejects: every failure is an outcome (errors as values).
 */
export interface Transport {
  send(request: DeliveryRequest): Promise<AttemptOutcome>;
  /** Releases connections; called once when the engine closes. */
  close(): Promise<void>;
}
