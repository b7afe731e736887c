/**
 * The wallet's use of the package encodings (src/core/encoding.ts): the same hex, base64url, UTF-8
 * and ECDSA DER, with errors that name the field (never echo its value) as `WalletCryptoError`s.
 * @internal
 * @module
 */
// @ts-nocheck

import * as encoding from '../core/encoding';
import { WalletCryptoError } from '../core/errors';

export { bytesToBase64url, bytesToHex, concatBytes, fromUtf8, utf8, type Bytes } from '../core/encoding';

/** Decodes hex (either case); `length`, when given, is the exact byte count required. */
export function hexToBytes(hex: string, field: string, length?: number): encoding.Bytes {
  const bytes = encoding.hexToBytes(hex);
  if (!bytes) throw new WalletCryptoError('invalid_input', `${field} must be an even-length hex string`);
  if (length !== undefined && bytes.length !== length) {
    throw new WalletCryptoError('invalid_input', `${field} must be ${length} bytes (${length * 2} hex characters), got ${bytes.length} bytes`);
  }
  return bytes;
}

/** Decodes strict base64url: URL alphabet, no padding. */
export function base64urlToBytes(text: string, field: string): encoding.Bytes {
  const bytes = encoding.base64urlToBytes(text);
  if (!bytes) throw new WalletCryptoError('invalid_input', `${field} must be base64url without padding`);
  return bytes;
}

/** SEC1 compressed form (33 bytes) of an uncompressed point `04‖X‖Y` (65 bytes). */
export function compressPoint(uncompressed: Uint8Array): encoding.Bytes {
  if (uncompressed.length !== 65 || uncompressed[0] !== 0x04) {
    throw new WalletCryptoError('invalid_input', 'public key must be a 65-byte uncompressed point');
  }
  return encoding.concatBytes(Uint8Array.of(0x02 | (uncompressed[64]! & 1)), uncompressed.subarray(1, 33));
}

/** ECDSA P-256 signature from WebCrypto's `r‖s` to DER. */
export function p1363ToDer(signature: Uint8Array): encoding.Bytes {
  try {
    return encoding.p1363ToDer(signature);
  } catch (cause) {
    throw new WalletCryptoError('invalid_input', 'signature must be a 64-byte r‖s P-256 signature', { cause });
  }
}

/** ECDSA P-256 signature from strict DER to `r‖s`, as WebCrypto verifies. */
export function derToP1363(der: Uint8Array): encoding.Bytes {
  const out = encoding.derToP1363(der);
  if (!out) throw new WalletCryptoError('invalid_input', 'signature is not a valid DER ECDSA signature');
  return out;
}
