/**
 * base58check (Bitcoin's alphabet, a 4-byte double-SHA-256 checksum), the carrier of the session
 * bundle. Written here on WebCrypto's SHA-256 rather than taken from @scure/base and @noble/hashes: the
 * device side needs nothing else of them, and they were about 2.5 kB min+gzip of the wallet bundle.
 * test/wallet/base58check.test.ts holds it to @scure/base's `createBase58check(sha256)`.
 * @internal
 * @module
 */
import { concatBytes, own, type Bytes } from '../core/encoding';
import { subtle } from './webcrypto';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** The first 4 bytes of SHA-256(SHA-256(data)). */
async function checksum(data: Uint8Array): Promise<Bytes> {
  const once = await subtle().digest('SHA-256', own(data));
  return new Uint8Array(await subtle().digest('SHA-256', once), 0, 4).slice();
}

/** base58 of `bytes` (each leading zero byte a leading `1`). */
function encode58(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  const digits: number[] = []; // base 58, least significant first
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i]!;
    for (let j = 0; j < digits.length; j++) {
      carry += digits[j]! << 8;
      digits[j] = carry % 58;
      carry = (carry / 58) | 0;
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = (carry / 58) | 0;
    }
  }
  let out = '1'.repeat(zeros);
  for (let i = digits.length - 1; i >= 0; i--) out += ALPHABET[digits[i]!];
  return out;
}

/** The bytes of a base58 text, or `undefined` for a character outside the alphabet. */
function decode58(text: string): Bytes | undefined {
  let zeros = 0;
  while (zeros < text.length && text[zeros] === '1') zeros++;
  const bytes: number[] = []; // base 256, least significant first
  for (let i = zeros; i < text.length; i++) {
    let carry = ALPHABET.indexOf(text[i]!);
    if (carry < 0) return undefined;
    for (let j = 0; j < bytes.length; j++) {
      carry += bytes[j]! * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  const out = new Uint8Array(zeros + bytes.length);
  for (let i = 0; i < bytes.length; i++) out[zeros + i] = bytes[bytes.length - 1 - i]!;
  return out;
}

/** base58check of `data`. */
export async function encodeBase58check(data: Uint8Array): Promise<string> {
  return encode58(concatBytes(data, await checksum(data)));
}

/** The payload of a base58check text; throws a TypeError when it is not base58 or its checksum is wrong. */
export async function decodeBase58check(text: string): Promise<Bytes> {
  const bytes = decode58(text);
  if (!bytes) throw new TypeError('not base58: a character outside the alphabet');
  if (bytes.length < 4) throw new TypeError('base58check: shorter than its checksum');
  const payload = bytes.slice(0, -4);
  const expected = await checksum(payload);
  for (let i = 0; i < 4; i++) if (bytes[bytes.length - 4 + i] !== expected[i]) throw new TypeError('base58check: wrong checksum');
  return payload;
}
