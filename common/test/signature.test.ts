import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, sign, verifySignature } from '../signature.js';
import { binaryString } from '../../test/support/arbitraries.js';

const SECRET = 'whsec_test_secret';
const BODY = '{"eventName":"Items.Sku.Created","eventVersion":1,"data":{"skuId":"sku_1","skuReference":"BOLT-000001"}}';
const HEX_DIGITS = '0123456789abcdef';

describe('webhook signatures', () => {
  it('exports the header names', () => {
    expect(SIGNATURE_HEADER).toBe('X-HMAC-Signature');
    expect(EVENT_ID_HEADER).toBe('X-Event-Id');
  });

  describe('sign', () => {
    it('matches the RFC 4231 HMAC-SHA256 test case 2', () => {
      expect(sign('what do ya want for nothing?', 'Jefe')).toBe(
        '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
      );
    });

    it('matches known vectors', () => {
      expect(sign('The quick brown fox jumps over the lazy dog', 'key')).toBe(
        'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
      );
      expect(sign('', 'key')).toBe('5d5d139563c95b5967b9bd9a8c9b233a9dedb45072794cd232dc1b74832607d0');
    });

    it('gives 64 lowercase hexadecimal characters', () => {
      expect(sign(BODY, SECRET)).toMatch(/^[0-9a-f]{64}$/);
    });

    it('hashes a string as its UTF-8 bytes (string and Uint8Array agree)', () => {
      const text = '{"name":"Crème brûlée 🍮","sep":"\u2028"}';
      const bytes = new TextEncoder().encode(text);
      expect(sign(bytes, SECRET)).toBe(sign(text, SECRET));
      expect(sign(Buffer.from(text, 'utf8'), SECRET)).toBe(sign(text, SECRET));
      expect(verifySignature(bytes, sign(text, SECRET), SECRET)).toBe(true);
      expect(verifySignature(text, sign(bytes, SECRET), SECRET)).toBe(true);
      // Latin-1 bytes of the same text are another body.
      expect(sign(Buffer.from(text, 'latin1'), SECRET)).not.toBe(sign(text, SECRET));
    });

    it('agrees with node:crypto used directly', () => {
      fc.assert(
        fc.property(binaryString({ maxLength: 200 }), fc.string({ minLength: 1, maxLength: 80 }), (body, secret) => {
          expect(sign(body, secret)).toBe(createHmac('sha256', secret).update(body, 'utf8').digest('hex'));
        }),
      );
    });

    it('rejects an empty secret and a parsed body', () => {
      expect(() => sign(BODY, '')).toThrow(TypeError);
      expect(() => sign(JSON.parse(BODY) as string, SECRET)).toThrow(/raw request body/);
      expect(() => verifySignature(BODY, sign(BODY, SECRET), '')).toThrow(TypeError);
      expect(() => verifySignature(JSON.parse(BODY) as string, sign(BODY, SECRET), SECRET)).toThrow(TypeError);
    });
  });

  describe('verifySignature', () => {
    const signature = sign(BODY, SECRET);

    it('accepts the signature of the raw body', () => {
      expect(verifySignature(BODY, signature, SECRET)).toBe(true);
      expect(verifySignature(Buffer.from(BODY), signature, SECRET)).toBe(true);
    });

    it('rejects a body with one byte changed', () => {
      const bytes = Buffer.from(BODY);
      for (const index of [0, 10, bytes.length - 1]) {
        const tampered = Buffer.from(bytes);
        tampered[index] = tampered[index]! ^ 0x01;
        expect(verifySignature(tampered, signature, SECRET)).toBe(false);
      }
      expect(verifySignature(BODY.replace('sku_1', 'sku_2'), signature, SECRET)).toBe(false);
    });

    it('rejects a body with a trailing newline', () => {
      expect(verifySignature(`${BODY}\n`, signature, SECRET)).toBe(false);
    });

    it('rejects another secret', () => {
      expect(verifySignature(BODY, signature, `${SECRET}x`)).toBe(false);
      expect(verifySignature(BODY, signature, SECRET.toUpperCase())).toBe(false);
    });

    it('rejects uppercase hexadecimal (the service sends lowercase)', () => {
      expect(signature).toMatch(/[a-f]/);
      expect(verifySignature(BODY, signature.toUpperCase(), SECRET)).toBe(false);
      const mixed = signature.replace(/[a-f]/, (c) => c.toUpperCase());
      expect(verifySignature(BODY, mixed, SECRET)).toBe(false);
    });

    it('rejects 63 and 65 characters', () => {
      expect(verifySignature(BODY, signature.slice(0, 63), SECRET)).toBe(false);
      expect(verifySignature(BODY, `${signature}0`, SECRET)).toBe(false);
      expect(verifySignature(BODY, signature.slice(0, 62), SECRET)).toBe(false);
      expect(verifySignature(BODY, signature + signature, SECRET)).toBe(false);
    });

    it('rejects non-hexadecimal characters and other encodings', () => {
      expect(verifySignature(BODY, `${signature.slice(0, 63)}g`, SECRET)).toBe(false);
      expect(verifySignature(BODY, `${signature.slice(0, 63)} `, SECRET)).toBe(false);
      expect(verifySignature(BODY, ` ${signature}`, SECRET)).toBe(false);
      expect(verifySignature(BODY, `${signature}\n`, SECRET)).toBe(false);
      expect(verifySignature(BODY, `sha256=${signature}`, SECRET)).toBe(false);
      expect(verifySignature(BODY, Buffer.from(signature, 'hex').toString('base64'), SECRET)).toBe(false);
      // 64 characters, but Buffer.from(…, 'hex') would stop at the first invalid pair.
      expect(verifySignature(BODY, `${signature.slice(0, 2)}zz${signature.slice(4)}`, SECRET)).toBe(false);
    });

    it('rejects an empty or missing header', () => {
      expect(verifySignature(BODY, '', SECRET)).toBe(false);
      expect(verifySignature(BODY, undefined, SECRET)).toBe(false);
      expect(verifySignature(BODY, null, SECRET)).toBe(false);
    });

    it('reads a one-element array and rejects other arrays', () => {
      expect(verifySignature(BODY, [signature], SECRET)).toBe(true);
      expect(verifySignature(BODY, [], SECRET)).toBe(false);
      expect(verifySignature(BODY, [signature, signature], SECRET)).toBe(false);
      expect(verifySignature(BODY, [signature, sign('other', SECRET)], SECRET)).toBe(false);
      expect(verifySignature(BODY, [signature.toUpperCase()], SECRET)).toBe(false);
    });

    it('rejects a body that was parsed and serialised again', () => {
      const raw = '{ "name": "Caf\\u00e9",\n  "quantity": 1.50, "note": "\\u2028" }';
      expect(JSON.parse(raw)).toEqual({ name: 'Café', quantity: 1.5, note: '\u2028' });
      const reserialised = JSON.stringify(JSON.parse(raw));
      expect(reserialised).not.toBe(raw);
      expect(verifySignature(raw, sign(raw, SECRET), SECRET)).toBe(true);
      expect(verifySignature(reserialised, sign(raw, SECRET), SECRET)).toBe(false);
    });

    it('property: a signature verifies, and any single-character change makes it fail', () => {
      fc.assert(
        fc.property(
          fc.oneof(binaryString(), fc.uint8Array({ maxLength: 256 })),
          fc.string({ minLength: 1, maxLength: 64 }),
          fc.nat({ max: 63 }),
          fc.string({ minLength: 1, maxLength: 1 }),
          (body, secret, position, replacement) => {
            const good = sign(body, secret);
            expect(verifySignature(body, good, secret)).toBe(true);
            fc.pre(replacement !== good.charAt(position));
            const bad = good.slice(0, position) + replacement + good.slice(position + 1);
            expect(verifySignature(body, bad, secret)).toBe(false);
          },
        ),
        { numRuns: 300 },
      );
    });

    it('property: changing one hex digit of the signature makes it fail', () => {
      fc.assert(
        fc.property(fc.string(), fc.nat({ max: 63 }), fc.nat({ max: 14 }), (body, position, offset) => {
          const good = sign(body, SECRET);
          const current = HEX_DIGITS.indexOf(good.charAt(position));
          const digit = HEX_DIGITS.charAt((current + 1 + offset) % 16);
          const bad = good.slice(0, position) + digit + good.slice(position + 1);
          expect(verifySignature(body, bad, SECRET)).toBe(false);
        }),
      );
    });
  });
});
