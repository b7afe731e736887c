import crypto from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64urlToBytes, bytesToBase64url, bytesToHex, compressPoint, derToP1363, hexToBytes, p1363ToDer } from '../../src/wallet/encoding';
import { WalletCryptoError } from '../../src/wallet';

/** 32-byte scalars biased towards DER edge cases: leading zero bytes, high bit set, zero, all-ones. */
const scalar = fc.oneof(
  fc.uint8Array({ minLength: 32, maxLength: 32 }),
  fc
    .tuple(fc.integer({ min: 1, max: 32 }), fc.uint8Array({ minLength: 32, maxLength: 32 }))
    .map(([zeros, b]) => new Uint8Array([...new Uint8Array(zeros), ...b.subarray(zeros)])),
  fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => ((b[0]! |= 0x80), b)),
  fc.tuple(fc.integer({ min: 1, max: 31 }), fc.uint8Array({ minLength: 32, maxLength: 32 })).map(([zeros, b]) => {
    const out = new Uint8Array(32);
    out.set(b.subarray(zeros), zeros);
    out[zeros] = out[zeros]! | 0x80; // leading zeros followed by a high bit
    return out;
  }),
  fc.constant(new Uint8Array(32)),
  fc.constant(new Uint8Array(32).fill(0xff)),
);

/** Reads the two INTEGER contents back out of a DER signature, checking DER's rules on the way. */
function derIntegers(der: Uint8Array): Uint8Array[] {
  expect(der[0]).toBe(0x30);
  expect(der[1]).toBe(der.length - 2);
  const ints: Uint8Array[] = [];
  let at = 2;
  while (at < der.length) {
    expect(der[at]).toBe(0x02);
    const len = der[at + 1]!;
    const body = der.subarray(at + 2, at + 2 + len);
    expect(body.length).toBe(len);
    expect(body[0]! & 0x80).toBe(0); // never negative
    if (body[0] === 0 && len > 1) expect(body[1]! & 0x80).toBe(0x80); // a 0x00 only when needed
    ints.push(body);
    at += 2 + len;
  }
  expect(ints).toHaveLength(2);
  return ints;
}

const toBigInt = (b: Uint8Array) => BigInt('0x' + (bytesToHex(b) || '0'));

describe('DER', () => {
  it('round-trips any r‖s and follows DER (minimal, positive)', () => {
    fc.assert(
      fc.property(scalar, scalar, (r, s) => {
        const p1363 = new Uint8Array([...r, ...s]);
        const der = p1363ToDer(p1363);
        const [derR, derS] = derIntegers(der);
        expect(toBigInt(derR!)).toBe(toBigInt(r));
        expect(toBigInt(derS!)).toBe(toBigInt(s));
        expect(der.length).toBeLessThanOrEqual(72);
        expect(derToP1363(der)).toEqual(p1363);
      }),
      { numRuns: 2000 },
    );
  });

  it('converts real signatures the way node reads them', () => {
    const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    fc.assert(
      fc.property(fc.string(), (message) => {
        const p1363 = crypto.sign('sha256', Buffer.from(message), { key: privateKey, dsaEncoding: 'ieee-p1363' });
        const der = p1363ToDer(p1363);
        expect(crypto.verify('sha256', Buffer.from(message), { key: publicKey, dsaEncoding: 'der' }, der)).toBe(true);
        const nodeDer = crypto.sign('sha256', Buffer.from(message), { key: privateKey, dsaEncoding: 'der' });
        expect(crypto.verify('sha256', Buffer.from(message), { key: publicKey, dsaEncoding: 'ieee-p1363' }, derToP1363(nodeDer))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('encodes known edge values', () => {
    const r = new Uint8Array(32).fill(0x80);
    const s = new Uint8Array(32);
    s[31] = 1;
    expect(bytesToHex(p1363ToDer(new Uint8Array([...r, ...s])))).toBe('3026' + '022100' + '80'.repeat(32) + '020101');
  });

  it('rejects malformed DER', () => {
    const good = p1363ToDer(new Uint8Array(64).fill(0x11));
    const bad = [
      new Uint8Array(0),
      good.subarray(0, good.length - 1),
      new Uint8Array([...good, 0]),
      hexToBytes('3006' + '020101' + '020101', 'x').map((b, i) => (i === 0 ? 0x31 : b)),
      hexToBytes('3007' + '02020001' + '020101', 'x'), // non-minimal
      hexToBytes('3006' + '020181' + '020101', 'x'), // negative
      hexToBytes('3006' + '020101' + '030101', 'x'),
      hexToBytes('3027' + '022201' + '11'.repeat(33) + '020101', 'x'), // r too long
    ];
    for (const der of bad) expect(() => derToP1363(der)).toThrow(WalletCryptoError);
  });
});

describe('hex and base64url', () => {
  it('round-trip random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        expect(hexToBytes(bytesToHex(b), 'x')).toEqual(b);
        const url = bytesToBase64url(b);
        expect(url).toBe(Buffer.from(b).toString('base64url'));
        expect(base64urlToBytes(url, 'x')).toEqual(b);
      }),
    );
  });

  it('refuse malformed input without echoing it', () => {
    for (const input of ['abc', 'zz', '0x00', ' 00', 'a'.repeat(63)]) {
      const error = (() => {
        try {
          hexToBytes(input, 'field', 32);
        } catch (e) {
          return e as Error;
        }
      })();
      expect(error).toBeInstanceOf(WalletCryptoError);
      expect(error!.message).toContain('field');
      if (input.length > 3) expect(error!.message).not.toContain(input.trim());
    }
    for (const input of ['AA==', 'A', 'a+b/', 'a b']) expect(() => base64urlToBytes(input, 'x')).toThrow(WalletCryptoError);
  });

  it('compresses points as SEC1 does', () => {
    const ecdh = crypto.createECDH('prime256v1');
    for (let i = 0; i < 20; i++) {
      ecdh.generateKeys();
      expect(bytesToHex(compressPoint(ecdh.getPublicKey()))).toBe(ecdh.getPublicKey('hex', 'compressed'));
    }
  });
});
