import { describe, expect, it } from 'vitest';
import { deliveryRateFor, DELIVERY_SHARE_OPTIONS } from '../delivery-shares.js';

describe('--delivery-rate-per-tenant', () => {
  const { value } = DELIVERY_SHARE_OPTIONS.deliveryRatePerTenant;

  it('paces tenants by host when not given: none on loopback, 200 a second on a host others reach', () => {
    expect(deliveryRateFor(null, true)).toBeNull();
    expect(deliveryRateFor(null, false)).toEqual({ limit: 200, windowMs: 1000 });
  });

  it('takes a given rate, or off, on any host', () => {
    const rate = { limit: 50, windowMs: 100 };
    expect(deliveryRateFor(rate, true)).toEqual(rate);
    expect(deliveryRateFor(rate, false)).toEqual(rate);
    expect(deliveryRateFor('off', false)).toBeNull();
  });

  it("reads N/window, off and auto (the host's default, as when not given), and writes them back", () => {
    expect(value.parse('50/100ms')).toEqual({ ok: true, value: { limit: 50, windowMs: 100 } });
    expect(value.parse('off')).toEqual({ ok: true, value: 'off' });
    expect(value.parse('auto')).toEqual({ ok: true, value: null });
    expect(value.format(null)).toBe('auto');
    expect(value.parse('fast').ok).toBe(false);
    expect(value.format({ limit: 50, windowMs: 100 })).toBe('50/100ms');
    expect(value.format('off')).toBe('off');
  });
});
