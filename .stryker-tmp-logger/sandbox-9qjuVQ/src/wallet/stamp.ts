/**
 * The `Service-Wallet-Signature` value ("API-key stamp") and the signer the SDK calls on a 202.
 * @module
 */
// @ts-nocheck

import type { Signer } from '../core/options';
import { bytesToBase64url, bytesToHex, p1363ToDer, utf8 } from './encoding';
import { WalletCryptoError } from '../core/errors';
import type { SessionKey } from './keys';
import { ECDSA_SHA256, subtle } from './webcrypto';

/** The `scheme` of every stamp. */
export const STAMP_SCHEME = 'SIGNATURE_SCHEME_TK_API_P256';

export type { Signer };

/**
 * Builds the `Service-Wallet-Signature` value for `payloadToSign`: base64url (no padding) of the
 * UTF-8 JSON `{"publicKey","scheme","signature"}`, where `signature` is the hex DER ECDSA P-256
 * SHA-256 signature over the exact UTF-8 bytes of `payloadToSign`.
 */
export async function stamp(payloadToSign: string, sessionKey: SessionKey): Promise<string> {
  if (typeof payloadToSign !== 'string') {
    throw new WalletCryptoError('invalid_input', 'payloadToSign must be the string received, unparsed');
  }
  const p1363 = await subtle().sign(ECDSA_SHA256, sessionKey.signingKey, utf8(payloadToSign));
  // Key order is part of the format: publicKey, scheme, signature.
  const json = JSON.stringify({
    publicKey: sessionKey.publicKey,
    scheme: STAMP_SCHEME,
    signature: bytesToHex(p1363ToDer(new Uint8Array(p1363))),
  });
  return bytesToBase64url(utf8(json));
}

/**
 * A {@link Signer} backed by a session key held on this device. Refuses a challenge past its
 * `expiresAt` (the service would answer 401): start again from the unsigned call.
 */
export function sessionKeySigner(sessionKey: SessionKey): Signer {
  return async (challenge) => {
    const expiresAt = Date.parse(challenge.expiresAt);
    if (!(expiresAt > Date.now())) {
      throw new WalletCryptoError(
        'challenge_expired',
        Number.isNaN(expiresAt)
          ? `challenge ${challenge.requestId} has an unreadable expiresAt`
          : `challenge ${challenge.requestId} expired at ${challenge.expiresAt}; repeat the unsigned request for a new one`,
      );
    }
    return stamp(challenge.payloadToSign, sessionKey);
  };
}
