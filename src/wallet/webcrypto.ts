/**
 * The WebCrypto handles shared by the wallet and the sandbox.
 * @internal
 * @module
 */
import { WalletCryptoError } from '../core/errors';

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
    throw new WalletCryptoError('unsupported', 'WebCrypto (crypto.subtle) is unavailable: browsers expose it only on https:// or localhost pages');
  }
  return s;
}
