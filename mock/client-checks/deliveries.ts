import { EVENT_ID_HEADER, SIGNATURE_HEADER } from '../../common/signature.js';
import type { Notification, WebhookPayload } from '../../spec/schemas/notifications.js';
import type { Clock } from '../clock.js';
import type { TenantState } from '../store/tenant-state.js';
import type { WebhookEngine } from '../webhooks/engine.js';
import type { AttemptWatch } from '../webhooks/observer.js';
import { serialisePayload } from '../webhooks/payload.js';
import type { Signer } from '../webhooks/signer.js';
import type { AttemptOutcome, DeliveryRequest } from '../webhooks/transport.js';
import { deliveriesAfter, forgedEntityValue, forgedSignature, rawSensitiveBody } from './plan.js';
import { EVENT_READS } from './reads.js';
import type { ClientCheckRun } from './run.js';
import { isSetUpSubscription, runOf } from './tenants.js';
import type { DeliveryAnswer, DeliveryKind, ObservedDelivery } from './trace.js';

const SIGNATURE = SIGNATURE_HEADER.toLowerCase();
const EVENT_ID = EVENT_ID_HEADER.toLowerCase();

/** The receiver's answer as the trace keeps it: a status, or a time-out or connection error. */
function answerOf(outcome: AttemptOutcome): DeliveryAnswer {
  if (outcome.responseStatus !== null) return { status: outcome.responseStatus, at: outcome.endedAtMs };
  return { error: outcome.errorKind === 'Timeout' ? 'timeout' : 'connection', at: outcome.endedAtMs };
}

/** The entity an event's data names, by the field the operation that reads it filters on (./reads.ts). */
function entityOf(payload: WebhookPayload): ObservedDelivery['entity'] {
  const field = EVENT_READS.get(payload.eventName)?.field;
  const value = field === undefined ? undefined : (payload.data as Record<string, unknown> | undefined)?.[field];
  return field !== undefined && (typeof value === 'string' || typeof value === 'number')
    ? { field, value: String(value) }
    : undefined;
}

/** A delivery as the trace records it, from its payload. */
function deliveryOf(
  notification: Notification,
  payload: WebhookPayload,
  kind: DeliveryKind,
  sentAt: number,
): Omit<ObservedDelivery, 'seq' | 'answer'> {
  const entity = entityOf(payload);
  return {
    subscriptionId: notification.subscriptionId,
    eventId: payload.id,
    eventName: payload.eventName,
    eventVersion: payload.eventVersion,
    ...(entity ? { entity } : {}),
    kind,
    sentAt,
  };
}

/** Records a delivery as it goes out; what to tell of its answer. */
function watch(
  run: ClientCheckRun,
  notification: Notification,
  payload: WebhookPayload,
  kind: DeliveryKind,
  clock: Clock,
): AttemptWatch {
  const seq = run.recorder.delivery(deliveryOf(notification, payload, kind, clock.now()));
  return (outcome) => run.recorder.answer(seq, answerOf(outcome), outcome.startedAtMs);
}

/**
 * The payload and bytes of a perturbation delivery (docs/DESIGN.md, "Client certification"): the duplicate is the
 * valid delivery itself; a forged one is a new event naming an entity no valid delivery names, signed wrongly; the
 * raw-sensitive one a new valid event whose bytes differ from any re-serialisation of its JSON, signed over them by
 * `signer`, the engine's own, so it is signed as every valid delivery of this mock is (a planted signature fault too).
 */
function perturbation(
  kind: Exclude<DeliveryKind, 'valid'>,
  valid: DeliveryRequest,
  notification: Notification,
  run: ClientCheckRun,
  signer: Signer,
  secret: string,
  subscriptionNumber: number,
): { payload: WebhookPayload; request: DeliveryRequest } {
  if (kind === 'duplicate') return { payload: notification.payload, request: valid };
  const id = `${notification.payload.id}-${kind}`;
  let payload: WebhookPayload = { ...notification.payload, id };
  let body: string;
  let signature: string;
  if (kind === 'raw-sensitive') {
    body = rawSensitiveBody(payload);
    signature = signer.sign(body, secret);
  } else {
    const field = EVENT_READS.get(payload.eventName)?.field;
    if (field !== undefined)
      payload = {
        ...payload,
        data: { ...payload.data, [field]: forgedEntityValue(run.seed, subscriptionNumber, kind) },
      };
    body = serialisePayload(payload);
    signature = forgedSignature(kind, body, secret, run.seed);
  }
  return {
    payload,
    request: { ...valid, body, headers: { ...valid.headers, [SIGNATURE]: signature, [EVENT_ID]: id } },
  };
}

/** Schedules the perturbations the plan puts after the valid delivery of a notification (profile certify). */
function perturbAfter(
  engine: WebhookEngine,
  clock: Clock,
  tenant: TenantState,
  run: ClientCheckRun,
  notification: Notification,
  valid: DeliveryRequest,
): void {
  const perturbs = run.perturbs(notification.id, notification.subscriptionId);
  if (!perturbs) return;
  for (const planned of deliveriesAfter(run.seed, perturbs.subscriptionNumber, perturbs.firstOfSubscription)) {
    const { payload, request } = perturbation(
      planned.kind,
      valid,
      notification,
      run,
      engine.signer,
      tenant.webhookSecret,
      perturbs.subscriptionNumber,
    );
    const id = run.recorder.plan({
      kind: planned.kind,
      eventName: payload.eventName,
      eventId: payload.id,
      subscriptionId: notification.subscriptionId,
      dueAt: clock.now() + planned.afterMs,
    });
    // Real time, as the client's receiver lives in it (inferred); sent through the engine, like an attempt.
    engine.timers.setTimeout(() => {
      run.recorder.unplan(id);
      engine.sendExtra(tenant, request, () =>
        runOf(tenant) === run ? watch(run, notification, payload, planned.kind, clock) : null,
      );
    }, planned.afterMs);
  }
}

/**
 * Watches the engine's attempts for the client checks: each attempt to a subscription the client made (not one of
 * the kit's set-up) of a tenant whose checks run is recorded as a valid delivery with its answer; under the profile
 * certify, its first attempt is followed by the plan's perturbations. Registered by the composition root.
 */
export function watchDeliveries(engine: WebhookEngine, clock: Clock): void {
  engine.observer = (tenant, notification, request) => {
    const run = runOf(tenant);
    if (!run || isSetUpSubscription(tenant, notification.subscriptionId)) return undefined;
    const seen = watch(run, notification, notification.payload, 'valid', clock);
    return (outcome) => {
      seen(outcome);
      if (runOf(tenant) === run) perturbAfter(engine, clock, tenant, run, notification, request);
    };
  };
}
