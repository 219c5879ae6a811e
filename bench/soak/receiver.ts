import { startReceiver as startWebhookReceiver } from '../../common/receiver.js';

/**
 * The soak's webhook receiver on 127.0.0.1: counts every delivery and those whose `X-HMAC-Signature` does not
 * verify with the tenant's secret (the tenant is the last path segment of the endpoint). Verification is
 * common/signature.ts, not the mock's signing code.
 */
export interface SoakReceiver {
  readonly url: string;
  readonly received: number;
  readonly signatureFailures: number;
  /** org -> webhook secret. */
  readonly secrets: Map<string, string>;
  close(): Promise<void>;
}

/** The tenant named by the last path segment (undefined when it is not valid percent-encoding). */
function orgOf(path: string): string | undefined {
  try {
    return decodeURIComponent(path.split('/').pop() ?? '');
  } catch {
    return undefined;
  }
}

export async function startReceiver(): Promise<SoakReceiver> {
  const secrets = new Map<string, string>();
  let signatureFailures = 0;
  const receiver = await startWebhookReceiver({
    // Thousands of deliveries: none kept, only counted.
    historyLimit: 0,
    keepAliveTimeoutMs: 30_000,
    secret: ({ path }) => secrets.get(orgOf(path) ?? ''),
    respond: (delivery) => {
      // No secret for the tenant counts as a failure too: every delivery must be verifiable.
      if (delivery.signature !== 'valid') signatureFailures++;
      return { status: 204, headers: {} };
    },
  });
  return {
    url: `${receiver.url}/hook`,
    secrets,
    get received() {
      return receiver.count;
    },
    get signatureFailures() {
      return signatureFailures;
    },
    close: () => receiver.close(),
  };
}
