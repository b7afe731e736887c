/**
 * Byte encodings shared by the wallet (device side) and the sandbox (server side): hex, base64url,
 * UTF-8, SEC1 point compression and ECDSA DER. Errors name the field, never echo its value.
 * @internal
 * @module
 */
import { WalletCryptoError } from '../core/errors';

/** Bytes backed by a plain ArrayBuffer, as WebCrypto's `BufferSource` wants. */
export type Bytes = Uint8Array<ArrayBuffer>;

const HEX = /^(?:[0-9a-fA-F]{2})*$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Lower-case hex of `bytes`. */
export function bytesToHex(bytes: Uint8Array): string {
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** Decodes hex (either case); `length`, when given, is the exact byte count required. */
export function hexToBytes(hex: string, field: string, length?: number): Bytes {
  if (typeof hex !== 'string' || !HEX.test(hex)) {
    throw new WalletCryptoError('invalid_input', `${field} must be an even-length hex string`);
  }
  if (length !== undefined && hex.length !== length * 2) {
    throw new WalletCryptoError('invalid_input', `${field} must be ${length} bytes (${length * 2} hex characters), got ${hex.length / 2} bytes`);
  }
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** base64url without padding. */
export function bytesToBase64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes strict base64url: URL alphabet, no padding. */
export function base64urlToBytes(text: string, field: string): Bytes {
  if (typeof text !== 'string' || !BASE64URL.test(text) || text.length % 4 === 1) {
    throw new WalletCryptoError('invalid_input', `${field} must be base64url without padding`);
  }
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** UTF-8 bytes of `text`, exactly as given. */
export function utf8(text: string): Bytes {
  return new TextEncoder().encode(text) as Bytes;
}

/** Strict UTF-8 decoding: invalid sequences throw instead of becoming U+FFFD. */
export function fromUtf8(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/** `a ‖ b`. */
export function concatBytes(a: Uint8Array, b: Uint8Array): Bytes {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** SEC1 compressed form (33 bytes) of an uncompressed point `04‖X‖Y` (65 bytes). */
export function compressPoint(uncompressed: Uint8Array): Bytes {
  if (uncompressed.length !== 65 || uncompressed[0] !== 0x04) {
    throw new WalletCryptoError('invalid_input', 'public key must be a 65-byte uncompressed point');
  }
  const out = new Uint8Array(33);
  out[0] = 0x02 | (uncompressed[64]! & 1);
  out.set(uncompressed.subarray(1, 33), 1);
  return out;
}

/** DER INTEGER body of an unsigned big-endian number: minimal, with a 0x00 when the high bit is set. */
function derInteger(unsigned: Uint8Array): number[] {
  let i = 0;
  while (i < unsigned.length - 1 && unsigned[i] === 0) i++;
  const body = Array.from(unsigned.subarray(i));
  if (body.length === 0) body.push(0);
  if (body[0]! & 0x80) body.unshift(0);
  return [0x02, body.length, ...body];
}

/** ECDSA signature from WebCrypto's `r‖s` (IEEE P1363) to DER `SEQUENCE { INTEGER r, INTEGER s }`. */
export function p1363ToDer(signature: Uint8Array): Bytes {
  if (signature.length === 0 || signature.length % 2 !== 0 || signature.length > 120) {
    throw new WalletCryptoError('invalid_input', 'signature must be r‖s of equal halves');
  }
  const half = signature.length / 2;
  const body = [...derInteger(signature.subarray(0, half)), ...derInteger(signature.subarray(half))];
  // Short-form length suffices: halves up to 60 bytes keep the body under 128 bytes (P-256: at most 70).
  return new Uint8Array([0x30, body.length, ...body]);
}

/** ECDSA signature from DER to `r‖s` with each half `size` bytes, as WebCrypto verifies. Strict DER. */
export function derToP1363(der: Uint8Array, size = 32): Bytes {
  const malformed = () => new WalletCryptoError('invalid_input', 'signature is not a valid DER ECDSA signature');
  if (der.length < 8 || der[0] !== 0x30 || der[1] !== der.length - 2 || der[1]! > 0x7f) throw malformed();
  const out = new Uint8Array(size * 2);
  let at = 2;
  for (const slot of [0, size]) {
    if (der[at] !== 0x02) throw malformed();
    const len = der[at + 1]!;
    const start = at + 2;
    if (len === 0 || start + len > der.length) throw malformed();
    const first = der[start]!;
    if (first & 0x80) throw malformed(); // negative
    if (first === 0 && len > 1 && !(der[start + 1]! & 0x80)) throw malformed(); // non-minimal
    const value = der.subarray(first === 0 && len > 1 ? start + 1 : start, start + len);
    if (value.length > size) throw malformed();
    out.set(value, slot + size - value.length);
    at = start + len;
  }
  if (at !== der.length) throw malformed();
  return out;
}
