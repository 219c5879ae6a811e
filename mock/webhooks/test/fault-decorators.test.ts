import { describe, expect, it } from 'vitest';
import type { FaultName } from '../../../index.js';
import { withWebhookFaults } from '../../faults/webhook-signer.js';
import type { Notification } from '../../../spec/schemas/notifications.js';
import { serialisePayload } from '../payload.js';
import { deliveryRequest } from '../request.js';
import { sign, verifySignature } from '../../../common/signature.js';
import { hmacSigner } from '../signer.js';
import { FakeTime } from './fake-time.js';
import { FakeTransport } from './fake-transport.js';

const SECRET = 'fault-test-secret';
const PAYLOAD = {
  id: 'evt_1',
  eventName: 'Warehouse.Shipment.Shipped',
  eventVersion: 1,
  occurredAt: '2026-01-05T08:00:00.000Z',
  orgCode: 'acme',
  data: { shipmentId: 'SHP-é-1' },
};
const NOTIFICATION = {
  id: 'ntf_1',
  eventId: 'evt_1',
  eventName: PAYLOAD.eventName,
  eventVersion: 1,
  endpoint: 'https://receiver.example/hooks',
} as Notification;

/** The faithful signer and a recording transport as the composition root wires them, with `faults` planted. */
function wire(...faults: FaultName[]) {
  const inner = new FakeTransport(new FakeTime());
  return { inner, ...withWebhookFaults({ signer: hmacSigner, transport: inner }, new Set(faults)) };
}

/** Signs and sends the payload through the wired parts; returns what went out. */
async function deliver(parts: ReturnType<typeof wire>) {
  const body = serialisePayload(PAYLOAD);
  await parts.transport.send(deliveryRequest(NOTIFICATION, body, parts.signer.sign(body, SECRET)));
  const sent = parts.inner.requests.at(-1)!;
  return { body: sent.body, signature: sent.headers['x-hmac-signature'] };
}

describe('webhook fault decorators (mock/faults/webhook-signer.ts)', () => {
  it('leave the faithful signer and transport untouched when no webhook fault is planted', async () => {
    const parts = wire('auth-401-with-code');
    expect(parts.signer).toBe(hmacSigner);
    expect(parts.transport).toBe(parts.inner);
    const sent = await deliver(parts);
    expect(sent.body).toBe(serialisePayload(PAYLOAD));
    expect(verifySignature(sent.body, sent.signature, SECRET)).toBe(true);
  });

  it('signature-uppercase-hex: the right HMAC in uppercase hex, which a strict receiver rejects', async () => {
    const sent = await deliver(wire('signature-uppercase-hex'));
    expect(sent.body).toBe(serialisePayload(PAYLOAD));
    expect(sent.signature).toBe(sign(sent.body, SECRET).toUpperCase());
    expect(verifySignature(sent.body, sent.signature, SECRET)).toBe(false);
  });

  it('signature-reserialised: the signature of the compact body, sent with the same JSON re-serialised, so it does not verify', async () => {
    const parts = wire('signature-reserialised');
    const sent = await deliver(parts);
    expect(sent.body).toBe(JSON.stringify(PAYLOAD, null, 2));
    expect(JSON.parse(sent.body)).toEqual(PAYLOAD);
    expect(sent.signature).toBe(sign(serialisePayload(PAYLOAD), SECRET));
    expect(verifySignature(sent.body, sent.signature, SECRET)).toBe(false);
    // Closing the engine's transport closes the real one underneath.
    await parts.transport.close();
    expect(parts.inner.closed).toBe(true);
  });
});
