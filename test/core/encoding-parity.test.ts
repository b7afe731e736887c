/**
 * The package's own base64 and hex codecs (src/core/encoding.ts, on btoa/atob) against @scure/base's
 * audited strict codecs: the same text for any bytes, and for any text the same verdict (accepted with
 * the same bytes, or refused). Strictness matters: one signature must have one spelling.
 */
import { base64, base64nopad, base64urlnopad, hex } from '@scure/base';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64ToBytes, base64urlToBytes, bytesToBase64, bytesToBase64url, bytesToHex, hexToBytes } from '../../src/core/encoding';

const scure = <T>(f: () => T): T | undefined => {
  try {
    return f();
  } catch {
    return undefined;
  }
};
const b64Chars = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \n'.split(''));
const b64Text = fc.oneof(
  fc.uint8Array({ maxLength: 80 }).map((b) => base64.encode(b)),
  fc.uint8Array({ maxLength: 80 }).map((b) => base64urlnopad.encode(b)),
  // A valid text with its last character changed: non-canonical padding bits, or a wrong alphabet.
  fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 40 }), b64Chars).map(([b, c]) => base64.encode(b).replace(/[^=](?==*$)/, c)),
  fc.array(b64Chars, { maxLength: 24 }).map((a) => a.join('')),
);

describe('own base64 and hex codecs', () => {
  it('encode any bytes as @scure/base does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(bytesToBase64(bytes)).toBe(base64.encode(bytes));
        expect(bytesToBase64url(bytes)).toBe(base64urlnopad.encode(bytes));
        expect(bytesToHex(bytes)).toBe(hex.encode(bytes));
      }),
      { numRuns: 400 },
    );
  });

  it('accept and refuse exactly the texts @scure/base accepts and refuses, with the same bytes', () => {
    fc.assert(
      fc.property(b64Text, (text) => {
        const expected = scure(() => (text.endsWith('=') ? base64.decode(text) : base64nopad.decode(text)));
        expect(base64ToBytes(text)).toEqual(expected);
        expect(base64urlToBytes(text)).toEqual(scure(() => base64urlnopad.decode(text)));
      }),
      { numRuns: 2000 },
    );
  });

  it('decode hex of either case, and refuse odd lengths and other characters', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.boolean(), (bytes, upper) => {
        const text = hex.encode(bytes);
        expect(hexToBytes(upper ? text.toUpperCase() : text)).toEqual(bytes);
      }),
    );
    expect(hexToBytes('abc')).toBeUndefined();
    expect(hexToBytes('0g')).toBeUndefined();
    expect(hexToBytes('0x00')).toBeUndefined();
  });

  it('encode a large buffer (no argument-count limit)', () => {
    const big = new Uint8Array(200_000).map((_, i) => i * 7);
    expect(bytesToBase64(big)).toBe(base64.encode(big));
  });
});
