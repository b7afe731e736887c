/**
 * The service side of wallet crypto, for the local sandbox: issue a session key, seal it to the
 * client's public key (the production bundle format), and check `Service-Wallet-Signature` stamps. WebCrypto and
 * @noble/curves only, so the emulator also runs in browsers (msw).
 * @module
 */
// @ts-nocheck

import { p256 } from '@noble/curves/nist.js';
import {
  base64urlToBytes,
  bytesToHex,
  concatBytes,
  derToP1363,
  fromUtf8,
  hexToBytes,
  utf8,
} from '../wallet/encoding';
import { WalletCryptoError } from '../core/errors';
import { STAMP_SCHEME } from '../wallet/stamp';
import { sealSessionBundle } from '../wallet/hpke';
import { ECDSA_P256, ECDSA_SHA256, P256_SCALAR_LENGTH, subtle } from '../wallet/webcrypto';

/** A fresh session key: the raw 32-byte private scalar and the compressed public key (hex). */
export function generateSessionKeyPair(): { privateKey: Uint8Array; publicKeyCompressedHex: string } {
  const privateKey = p256.utils.randomSecretKey();
  return { privateKey, publicKeyCompressedHex: bytesToHex(p256.getPublicKey(privateKey, true)) };
}

/** True when `hex` is a P-256 public key on the curve, uncompressed (65 bytes, `04…`) or compressed (33 bytes, `02…`/`03…`). */
export function isValidClientPublicKey(hex: string): boolean {
  try {
    const bytes = hexToBytes(hex, 'clientPublicKey');
    return (bytes.length === 65 && bytes[0] === 0x04) || (bytes.length === 33 && (bytes[0] === 0x02 || bytes[0] === 0x03)) ? p256.utils.isValidPublicKey(bytes, bytes.length === 33) : false;
  } catch {
    return false;
  }
}

/** True for the compressed form, which the service answers with a client-held session (no sealed key). */
export function isCompressedClientPublicKey(hex: string): boolean {
  return isValidClientPublicKey(hex) && hex.length === 66;
}

/**
 * The `encryptedSessionSigningKey` for `clientPublicKeyHex`, in the production format: base58check of
 * the compressed HPKE `enc` and the sealed key (info `turnkey_hpke`, AAD enc ‖ recipient key).
 */
export async function sealSessionKey(clientPublicKeyHex: string, sessionPrivateKey: Uint8Array): Promise<string> {
  if (!isValidClientPublicKey(clientPublicKeyHex)) {
    throw new WalletCryptoError('invalid_input', 'clientPublicKey must be the hex of a P-256 public key (65 bytes uncompressed or 33 compressed)');
  }
  if (sessionPrivateKey.length !== P256_SCALAR_LENGTH) {
    throw new WalletCryptoError('invalid_input', 'session private key must be 32 bytes');
  }
  return sealSessionBundle(hexToBytes(clientPublicKeyHex, 'clientPublicKey'), sessionPrivateKey);
}

/** Outcome of {@link verifyStamp}; on success, the session public key (compressed hex) that signed. */
export type StampVerification =
  | { ok: true; publicKey: string }
  | { ok: false; reason: 'malformed' | 'bad_scheme' | 'bad_signature' };

/**
 * Checks a `Service-Wallet-Signature` value against the exact `payloadToSign` string. The caller
 * still checks that the returned `publicKey` belongs to an active session of the right account.
 */
export async function verifyStamp(stampValue: string, payloadToSign: string): Promise<StampVerification> {
  let parts: { publicKey: string; scheme: string; signature: string };
  let key: CryptoKey;
  let signature: Uint8Array<ArrayBuffer>;
  try {
    parts = parseStamp(stampValue);
    if (parts.scheme !== STAMP_SCHEME) return { ok: false, reason: 'bad_scheme' };
    const point = p256.Point.fromBytes(hexToBytes(parts.publicKey, 'publicKey', 33)).toBytes(false);
    key = await subtle().importKey('raw', new Uint8Array(point), ECDSA_P256, false, ['verify']);
    signature = derToP1363(hexToBytes(parts.signature, 'signature'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const ok = await subtle().verify(ECDSA_SHA256, key, signature, utf8(payloadToSign));
  return ok ? { ok: true, publicKey: parts.publicKey.toLowerCase() } : { ok: false, reason: 'bad_signature' };
}

/** Decodes the stamp JSON; exactly the three string fields, anything else throws. */
function parseStamp(stampValue: string): { publicKey: string; scheme: string; signature: string } {
  const value: unknown = JSON.parse(fromUtf8(base64urlToBytes(stampValue, 'stamp')));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
  const { publicKey, scheme, signature, ...rest } = value as Record<string, unknown>;
  if (typeof publicKey !== 'string' || typeof scheme !== 'string' || typeof signature !== 'string' || Object.keys(rest).length > 0) {
    throw new Error('unexpected fields');
  }
  return { publicKey, scheme, signature };
}
