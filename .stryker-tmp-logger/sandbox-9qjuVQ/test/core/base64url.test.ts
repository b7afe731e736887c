/** The main entry's library-free base64url encoder (src/core/base64url.ts) writes what the encoding module writes. */
// @ts-nocheck

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToBase64url } from '../../src/core/base64url';
import * as encoding from '../../src/core/encoding';

describe('base64url for the passkey helpers', () => {
  it('equals the encoding module and Node for any bytes, empty and past one 32 KiB slice included', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(bytesToBase64url(bytes)).toBe(encoding.bytesToBase64url(bytes));
        expect(bytesToBase64url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
      }),
      { numRuns: 500 },
    );
    const big = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31) & 0xff);
    expect(bytesToBase64url(big)).toBe(Buffer.from(big).toString('base64url'));
    expect(bytesToBase64url(new Uint8Array())).toBe('');
  });
});
