import type { Precondition } from '../types.js';
import { Receiver } from './receiver.js';

/**
 * What starting the receiver reads of a run's options (`ConformOptions` has these members): named here so the wire
 * imports nothing of the run it serves.
 */
interface ReceiverOptions {
  webhookHost?: string | undefined;
  webhookPort?: number | undefined;
  webhookPublicUrl?: string | undefined;
  onProgress?: ((event: { kind: 'receiver'; listening: string; deliveriesAt: string }) => void) | undefined;
}

/** What starting the receiver sets on a run (a `RunContext`): its receiver, or why webhooks are unavailable. */
interface ReceiverRun {
  receiver?: Receiver | undefined;
  readonly unavailable: Map<Precondition, string>;
}

/**
 * Starts a run's webhook receiver (`--webhooks`) on `--webhook-host`/`--webhook-port`, behind `--webhook-public-url`
 * when given; the runner and `opsapi learn` both start theirs here. A receiver that cannot listen makes the webhook
 * precondition unavailable, with the reason, instead of failing the run.
 */
export async function startRunReceiver(run: ReceiverRun, options: ReceiverOptions): Promise<void> {
  const receiver = new Receiver();
  try {
    await receiver.start(options.webhookHost ?? '127.0.0.1', options.webhookPort ?? 0, options.webhookPublicUrl);
    run.receiver = receiver;
    // Behind a tunnel the port must be known to point the tunnel at it: without --webhook-port it is chosen now.
    if (options.webhookPublicUrl)
      options.onProgress?.({ kind: 'receiver', listening: receiver.listening, deliveriesAt: receiver.url });
  } catch (error) {
    run.unavailable.set('webhooks', `the webhook receiver could not listen: ${(error as Error).message}`);
  }
}
