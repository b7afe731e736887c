/**
 * The wallet's own base58check (src/wallet/base58check.ts, on WebCrypto's SHA-256) against @scure/base's
 * `createBase58check(sha256)`, which the bundle format was first read with: same text for any bytes,
 * same bytes or the same refusal for any text.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase58check, encodeBase58check } from '../../src/wallet/base58check';

const scure = createBase58check(sha256);
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

const ours = (text: string) =>
  decodeBase58check(text).then(
    (b) => Array.from(b),
    () => 'refused',
  );
const theirs = (text: string) => {
  try {
    return Array.from(scure.decode(text));
  } catch {
    return 'refused';
  }
};

describe('base58check', () => {
  it('encodes any bytes (leading zeros included) as @scure/base does, and decodes them back', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 120 }), fc.nat({ max: 4 }), async (tail, zeros) => {
        const bytes = Uint8Array.from([...new Array<number>(zeros).fill(0), ...tail]);
        const text = await encodeBase58check(bytes);
        expect(text).toBe(scure.encode(bytes));
        expect(Array.from(await decodeBase58check(text))).toEqual(Array.from(bytes));
      }),
      { numRuns: 300 },
    );
  });

  it('accepts and refuses exactly the texts @scure/base accepts and refuses', async () => {
    const texts = fc.oneof(
      fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 60 }),
      fc.string({ unit: fc.constantFrom(...`${ALPHABET}0OIl+/ `), maxLength: 20 }),
      // a valid text with one character changed: the checksum catches it
      fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 40 }), fc.nat(), fc.constantFrom(...ALPHABET)).map(([b, at, c]) => {
        const text = scure.encode(b);
        const i = at % text.length;
        return text.slice(0, i) + c + text.slice(i + 1);
      }),
    );
    await fc.assert(
      fc.asyncProperty(texts, async (text) => {
        expect(await ours(text)).toEqual(theirs(text));
      }),
      { numRuns: 500 },
    );
    expect(await ours('')).toEqual(theirs(''));
    expect(await ours('1111')).toBe('refused');
  });
});
