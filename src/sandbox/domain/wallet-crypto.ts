/**
 * The service side of wallet crypto, for the local sandbox: issue a session key, seal it to the
 * client's public key (the production bundle format), check `Service-Wallet-Signature` stamps, and
 * play the OTP enclave of the secure OTP login (signed target bundles, sealed attempts, verification
 * tokens). WebCrypto and
 * @noble/curves only, so the emulator also runs in browsers (msw).
 * @module
 */
import { p256 } from '@noble/curves/nist.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64urlToBytes, bytesToBase64url, bytesToHex, concatBytes, derToP1363, fromUtf8, hexToBytes, p1363ToDer, utf8 } from '../../wallet/encoding';
import { WalletCryptoError } from '../../core/errors';
import { STAMP_SCHEME } from '../../wallet/stamp';
import { hpkeOpen, sealSessionBundle } from '../../wallet/hpke';
import { privateJwk } from '../../wallet/keys';
import { ECDH_P256, ECDSA_P256, ECDSA_SHA256, P256_SCALAR_LENGTH, subtle } from '../../wallet/webcrypto';

/** A fresh session key: the raw 32-byte private scalar and the compressed public key (hex). */
export function generateSessionKeyPair(): { privateKey: Uint8Array; publicKeyCompressedHex: string } {
  const privateKey = p256.utils.randomSecretKey();
  return { privateKey, publicKeyCompressedHex: bytesToHex(p256.getPublicKey(privateKey, true)) };
}

/** True when `hex` is a P-256 public key on the curve, uncompressed (65 bytes, `04…`) or compressed (33 bytes, `02…`/`03…`). */
export function isValidClientPublicKey(hex: string): boolean {
  try {
    const bytes = hexToBytes(hex, 'clientPublicKey');
    return (bytes.length === 65 && bytes[0] === 0x04) || (bytes.length === 33 && (bytes[0] === 0x02 || bytes[0] === 0x03))
      ? p256.utils.isValidPublicKey(bytes, bytes.length === 33)
      : false;
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
export type StampVerification = { ok: true; publicKey: string } | { ok: false; reason: 'malformed' | 'bad_scheme' | 'bad_signature' };

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

/**
 * The label the local sandbox's OTP enclave key is derived from (SHA-256 of its UTF-8 bytes). Public
 * on purpose: the key is a test key; its public half is `LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY`.
 */
export const SANDBOX_OTP_ENCLAVE_LABEL = 'crossborder-sdk local sandbox OTP enclave key (public test key, never trusted in production)';

let enclave: { privateKey: Uint8Array; publicKeyHex: string } | undefined;

/** The local sandbox's OTP enclave key: signs target bundles and verification tokens. */
export function sandboxOtpEnclaveKey(): { privateKey: Uint8Array; publicKeyHex: string } {
  if (!enclave) {
    const privateKey = sha256(utf8(SANDBOX_OTP_ENCLAVE_LABEL));
    enclave = { privateKey, publicKeyHex: bytesToHex(p256.getPublicKey(privateKey, false)) };
  }
  return enclave;
}

/**
 * A fresh OTP target: its private scalar (kept by the sandbox until the code is used) and the signed
 * `otpEncryptionTargetBundle` in production's format: JSON `{version, data, dataSignature,
 * enclaveQuorumPublic}`, `data` the hex of `{"targetPublic": <uncompressed hex>}`, `dataSignature` the
 * hex DER ECDSA P-256 SHA-256 signature of the `data` bytes by the enclave key.
 */
export function issueOtpTarget(): { privateKey: Uint8Array; bundle: string } {
  const privateKey = p256.utils.randomSecretKey();
  const data = utf8(JSON.stringify({ targetPublic: bytesToHex(p256.getPublicKey(privateKey, false)) }));
  const signer = sandboxOtpEnclaveKey();
  const signature = p1363ToDer(p256.sign(data, signer.privateKey, { prehash: true }));
  const bundle = JSON.stringify({
    version: 'v1.0.0',
    data: bytesToHex(data),
    dataSignature: bytesToHex(signature),
    enclaveQuorumPublic: signer.publicKeyHex,
  });
  return { privateKey, bundle };
}

/** What a sealed OTP attempt holds. */
export interface OtpAttempt {
  otpCode: string;
  /** The client public key sealed with the code (hex, as sent; compressed from the SDK). */
  publicKey: string;
}

/**
 * Opens an `encryptedOtpBundle` (`{"encappedPublic","ciphertext"}` hex JSON) with the OTP target's
 * private scalar. Returns undefined when it is malformed or does not open (the caller answers 401),
 * the code and public key otherwise.
 */
export async function openOtpAttempt(encryptedOtpBundle: string, targetPrivateKey: Uint8Array): Promise<OtpAttempt | undefined> {
  try {
    const { encappedPublic, ciphertext } = JSON.parse(encryptedOtpBundle) as Record<string, unknown>;
    if (typeof encappedPublic !== 'string' || typeof ciphertext !== 'string') return undefined;
    const { point, jwk } = privateJwk(targetPrivateKey);
    const key = await subtle().importKey('jwk', jwk, ECDH_P256, false, ['deriveBits']);
    const plaintext = await hpkeOpen(
      hexToBytes(encappedPublic, 'encappedPublic'),
      hexToBytes(ciphertext, 'ciphertext'),
      key,
      point,
      'encryptedOtpBundle',
      'target key',
    );
    const { otp_code: otpCode, public_key: publicKey } = JSON.parse(fromUtf8(plaintext)) as Record<string, unknown>;
    if (typeof otpCode !== 'string' || typeof publicKey !== 'string') return undefined;
    return { otpCode, publicKey };
  } catch {
    return undefined;
  }
}

/**
 * A `verificationToken` as Turnkey's enclave issues it: an ES256 JWT (header `{"alg":"ES256","typ":"JWT"}`)
 * signed by the enclave key, with the claims `id`, `verification_type`, `contact`, `organization_id`,
 * `public_key` (the key bound to the login) and `exp` (milliseconds since the epoch, as a string).
 */
export function issueVerificationToken(claims: { id: string; verificationType: string; contact: string; publicKey: string; expiresMs: number }): string {
  const part = (value: unknown) => bytesToBase64url(utf8(JSON.stringify(value)));
  const signingInput = `${part({ alg: 'ES256', typ: 'JWT' })}.${part({
    id: claims.id,
    verification_type: claims.verificationType,
    contact: claims.contact,
    organization_id: 'crossborder-sandbox',
    public_key: claims.publicKey,
    exp: String(claims.expiresMs),
  })}`;
  const signature = p256.sign(utf8(signingInput), sandboxOtpEnclaveKey().privateKey, { prehash: true });
  return `${signingInput}.${bytesToBase64url(signature)}`;
}
