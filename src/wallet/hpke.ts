/**
 * The session bundle of the production service (decisions.md "Wallet authentication"): HPKE base
 * mode, DHKEM(P-256, HKDF-SHA256) / HKDF-SHA256 / AES-256-GCM (RFC 9180), info `turnkey_hpke`,
 * AAD = `enc` (uncompressed) ‖ recipient public key (uncompressed), carried as base58check of the
 * compressed `enc` followed by the ciphertext and its tag. Written on WebCrypto (ECDH, HMAC,
 * AES-GCM) plus @noble/curves' point for (de)compression (./p256), so it runs in browsers, Node, Deno, Bun,
 * workerd and edge runtimes without any Node module.
 * @internal
 * @module
 */
import { concatBytes, own, type Bytes } from '../core/encoding';
import { WalletCryptoError } from '../core/errors';
import { decodeBase58check, encodeBase58check } from './base58check';
import { pointBytes } from './p256';
import { ECDH_P256, subtle } from './webcrypto';

/** HPKE `info` of the session bundle. */
export const SESSION_BUNDLE_INFO = 'turnkey_hpke';

const encoder = /* @__PURE__ */ new TextEncoder();
const concat = concatBytes;

const i2osp2 = (n: number) => Uint8Array.of(n >> 8, n & 0xff);
const text = (s: string) => encoder.encode(s);
// RFC 9180 §7: DHKEM(P-256, HKDF-SHA256) 0x0010, HKDF-SHA256 0x0001, AES-256-GCM 0x0002.
const KEM_SUITE = /* @__PURE__ */ concat(text('KEM'), i2osp2(0x0010));
const HPKE_SUITE = /* @__PURE__ */ concat(text('HPKE'), i2osp2(0x0010), i2osp2(0x0001), i2osp2(0x0002));
const HPKE_V1 = /* @__PURE__ */ text('HPKE-v1');

async function hmac(key: Uint8Array, data: Uint8Array): Promise<Bytes> {
  // An empty HMAC key is the RFC 5869 default salt: a block of zeros gives the same result.
  const k = await subtle().importKey('raw', key.length ? own(key) : new Uint8Array(32), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await subtle().sign('HMAC', k, own(data)));
}

async function expand(prk: Uint8Array, info: Uint8Array, length: number): Promise<Bytes> {
  const out = new Uint8Array(length);
  let t: Uint8Array = new Uint8Array(0);
  for (let i = 1, at = 0; at < length; i++) {
    t = await hmac(prk, concat(t, info, Uint8Array.of(i)));
    out.set(t.subarray(0, Math.min(t.length, length - at)), at);
    at += t.length;
  }
  return out;
}

const labeledExtract = (suite: Uint8Array, salt: Uint8Array, label: string, ikm: Uint8Array) => hmac(salt, concat(HPKE_V1, suite, text(label), ikm));
const labeledExpand = (suite: Uint8Array, prk: Uint8Array, label: string, info: Uint8Array, length: number) =>
  expand(prk, concat(i2osp2(length), HPKE_V1, suite, text(label), info), length);

/** The AES key and nonce of one HPKE context (base mode, sequence 0). */
async function keySchedule(dh: Uint8Array, enc: Uint8Array, recipient: Uint8Array, info: Uint8Array): Promise<{ key: CryptoKey; nonce: Bytes }> {
  const empty = new Uint8Array(0);
  const eaePrk = await labeledExtract(KEM_SUITE, empty, 'eae_prk', dh);
  const sharedSecret = await labeledExpand(KEM_SUITE, eaePrk, 'shared_secret', concat(enc, recipient), 32);
  const context = concat(
    Uint8Array.of(0x00),
    await labeledExtract(HPKE_SUITE, empty, 'psk_id_hash', empty),
    await labeledExtract(HPKE_SUITE, empty, 'info_hash', info),
  );
  const secret = await labeledExtract(HPKE_SUITE, sharedSecret, 'secret', empty);
  const raw = await labeledExpand(HPKE_SUITE, secret, 'key', context, 32);
  const nonce = await labeledExpand(HPKE_SUITE, secret, 'base_nonce', context, 12);
  const key = await subtle().importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
  raw.fill(0);
  return { key, nonce };
}

/** Uncompressed (65-byte) form of a P-256 point given compressed or uncompressed. */
export function uncompressed(point: Uint8Array, field: string): Bytes {
  try {
    return pointBytes(point, false);
  } catch (cause) {
    throw new WalletCryptoError('invalid_input', `${field} is not a P-256 public key (33 bytes compressed or 65 uncompressed)`, { cause });
  }
}

/** Compressed (33-byte) form of a P-256 point. */
export function compressed(point: Uint8Array, field: string): Bytes {
  try {
    return pointBytes(point, true);
  } catch (cause) {
    throw new WalletCryptoError('invalid_input', `${field} is not a P-256 public key (33 bytes compressed or 65 uncompressed)`, { cause });
  }
}

/**
 * Opens a session bundle with the recipient's ECDH private key (it never leaves WebCrypto).
 * @param bundle base58check of compressed `enc` ‖ ciphertext ‖ tag.
 * @param recipientPrivateKey WebCrypto ECDH P-256 private key (usage `deriveBits`).
 * @param recipientPublicKey the recipient's public key, compressed or uncompressed bytes.
 * @returns the plaintext (the 32-byte session private key); the caller wipes it.
 */
export async function openSessionBundle(bundle: string, recipientPrivateKey: CryptoKey, recipientPublicKey: Uint8Array): Promise<Bytes> {
  if (typeof bundle !== 'string' || bundle === '')
    throw new WalletCryptoError('invalid_input', 'encryptedSessionSigningKey must be a non-empty base58check string');
  let bytes: Bytes;
  try {
    bytes = await decodeBase58check(bundle.trim());
  } catch (cause) {
    if (cause instanceof WalletCryptoError) throw cause; // no WebCrypto: said as such
    throw new WalletCryptoError('invalid_input', 'encryptedSessionSigningKey is not base58check (the production bundle format)', { cause });
  }
  if (bytes.length <= 33 + 16) {
    throw new WalletCryptoError('invalid_input', `encryptedSessionSigningKey decodes to ${bytes.length} bytes: too short for a 33-byte enc and a sealed key`);
  }
  return hpkeOpen(bytes.subarray(0, 33), bytes.subarray(33), recipientPrivateKey, recipientPublicKey, 'encryptedSessionSigningKey');
}

/**
 * HPKE base-mode open (the suite and `info` of this module, AAD `enc` ‖ recipient key, both
 * uncompressed). `what` names the sealed value in errors, `recipientName` the key it must be sealed to: `decrypt_failed` when the tag does not
 * verify (corrupted, or sealed to another key), `unsupported` when WebCrypto itself refuses.
 */
export async function hpkeOpen(
  encBytes: Uint8Array,
  ciphertext: Uint8Array,
  recipientPrivateKey: CryptoKey,
  recipientPublicKey: Uint8Array,
  what: string,
  recipientName = 'clientPublicKey',
): Promise<Bytes> {
  const enc = uncompressed(encBytes, `the ${what} enc`);
  const recipient = uncompressed(recipientPublicKey, 'the recipient public key');
  let key: CryptoKey;
  let nonce: Bytes;
  try {
    const peer = await subtle().importKey('raw', enc, ECDH_P256, false, []);
    const dh = new Uint8Array(await subtle().deriveBits({ name: 'ECDH', public: peer }, recipientPrivateKey, 256));
    ({ key, nonce } = await keySchedule(dh, enc, recipient, text(SESSION_BUNDLE_INFO)));
    dh.fill(0);
  } catch (cause) {
    // enc is a valid point (checked above): nothing here depends on the bundle being genuine.
    throw refused(cause, what);
  }
  try {
    return new Uint8Array(await subtle().decrypt({ name: 'AES-GCM', iv: nonce, additionalData: concat(enc, recipient) }, key, own(ciphertext)));
  } catch (cause) {
    // AES-GCM reports a failed authentication, and only that, as OperationError (WebCrypto spec).
    if ((cause as { name?: unknown } | null)?.name !== 'OperationError') throw refused(cause, what);
    throw new WalletCryptoError('decrypt_failed', `${what} could not be decrypted: it is corrupted or was sealed to a different ${recipientName}`, { cause });
  }
}

/**
 * The runtime's WebCrypto refused an operation itself (a TypeError for a typed array from another
 * realm, a missing algorithm): said as such, with the runtime's words, not as a bad bundle.
 */
function refused(cause: unknown, what: string): WalletCryptoError {
  const said =
    cause instanceof Error || (typeof cause === 'object' && cause !== null && 'message' in cause)
      ? `${String((cause as Error).name)}: ${String((cause as Error).message)}`
      : String(cause);
  return new WalletCryptoError('unsupported', `this runtime's WebCrypto refused to open ${what} (ECDH P-256, HMAC-SHA-256, AES-256-GCM): ${said}`, { cause });
}

/**
 * HPKE base-mode seal to a recipient public key (compressed or uncompressed), with a fresh
 * ephemeral key: the suite and `info` of this module, AAD `enc` ‖ recipient key (both uncompressed).
 * @returns `enc` (uncompressed, 65 bytes) and the AES-256-GCM ciphertext with its tag.
 */
export async function hpkeSeal(recipientPublicKey: Uint8Array, plaintext: Uint8Array, field = 'clientPublicKey'): Promise<{ enc: Bytes; ciphertext: Bytes }> {
  const recipient = uncompressed(recipientPublicKey, field);
  const ephemeral = await subtle().generateKey(ECDH_P256, false, ['deriveBits']);
  const enc = new Uint8Array(await subtle().exportKey('raw', ephemeral.publicKey));
  const peer = await subtle().importKey('raw', recipient, ECDH_P256, false, []);
  const dh = new Uint8Array(await subtle().deriveBits({ name: 'ECDH', public: peer }, ephemeral.privateKey, 256));
  const { key, nonce } = await keySchedule(dh, enc, recipient, text(SESSION_BUNDLE_INFO));
  dh.fill(0);
  const ciphertext = new Uint8Array(await subtle().encrypt({ name: 'AES-GCM', iv: nonce, additionalData: concat(enc, recipient) }, key, own(plaintext)));
  return { enc, ciphertext };
}

/**
 * Seals `plaintext` to a recipient public key in the session-bundle format (the service's side; the
 * local sandbox uses it).
 * @returns base58check of compressed `enc` ‖ ciphertext ‖ tag.
 */
export async function sealSessionBundle(recipientPublicKey: Uint8Array, plaintext: Uint8Array): Promise<string> {
  const { enc, ciphertext } = await hpkeSeal(recipientPublicKey, plaintext);
  return encodeBase58check(concat(compressed(enc, 'enc'), ciphertext));
}
