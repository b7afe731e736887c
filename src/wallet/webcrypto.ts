/**
 * The one HPKE suite and the WebCrypto handles shared by the wallet and the sandbox.
 * @internal
 * @module
 */
import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { WalletCryptoError } from '../core/errors';

/** `encryptedSessionSigningKey` suite: DHKEM(P-256, HKDF-SHA256) / HKDF-SHA256 / AES-256-GCM, base mode. */
export const hpkeSuite = /* @__PURE__ */ new CipherSuite({
  kem: new DhkemP256HkdfSha256(),
  kdf: new HkdfSha256(),
  aead: new Aes256Gcm(),
});

/** Bytes of `enc` (the sender's uncompressed ephemeral P-256 key). */
export const HPKE_ENC_LENGTH = 65;
/** Bytes of the AES-GCM tag appended to the ciphertext. */
export const HPKE_TAG_LENGTH = 16;
/** Bytes of a P-256 private scalar. */
export const P256_SCALAR_LENGTH = 32;

/** WebCrypto algorithm of the client (HPKE recipient) key pair. */
export const ECDH_P256 = { name: 'ECDH', namedCurve: 'P-256' } as const;
/** WebCrypto algorithm of the session signing key. */
export const ECDSA_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
/** WebCrypto parameters of a stamp signature. */
export const ECDSA_SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** `crypto.subtle`, or a clear error where the runtime hides it. */
export function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) {
    // Browsers expose crypto.subtle only in secure contexts, which is the usual cause.
    throw new WalletCryptoError(
      'unsupported',
      'WebCrypto (crypto.subtle) is unavailable: browsers expose it only on https:// or localhost pages',
    );
  }
  return s;
}
