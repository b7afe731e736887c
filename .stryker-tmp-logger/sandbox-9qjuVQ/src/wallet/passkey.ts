/**
 * Maps WebAuthn credentials to the request bodies of `/auth/credentials` (attestation) and
 * `/auth/credentials/{id}/verify` (assertion).
 * @module
 */
// @ts-nocheck

import { bytesToBase64url } from './encoding';
import { WalletCryptoError } from '../core/errors';

/** Bytes as WebAuthn gives them, or already base64url (as in `PublicKeyCredential.toJSON()`). */
export type PasskeyBytes = ArrayBuffer | ArrayBufferView | string;

/** A `PublicKeyCredential` from `navigator.credentials.create()`, or its `toJSON()` form. */
export interface PasskeyAttestationCredential {
  rawId: PasskeyBytes;
  response: {
    clientDataJSON: PasskeyBytes;
    attestationObject?: PasskeyBytes;
    getTransports?: () => string[];
    transports?: string[];
  };
}

/** A `PublicKeyCredential` from `navigator.credentials.get()`, or its `toJSON()` form. */
export interface PasskeyAssertionCredential {
  rawId: PasskeyBytes;
  response: {
    clientDataJSON: PasskeyBytes;
    authenticatorData?: PasskeyBytes;
    signature?: PasskeyBytes;
    userHandle?: PasskeyBytes | null;
  };
}

/** The `attestation` object of a PASSKEY `POST /auth/credentials` body. */
export interface PasskeyAttestation {
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports: string[];
}

/** The `assertion` object of a PASSKEY `/verify` body. */
export interface PasskeyAssertion {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
  userHandle: string | null;
}

/** Maps a registration credential to the `attestation` body field (all base64url, no padding). */
export function passkeyAttestation(credential: PasskeyAttestationCredential): PasskeyAttestation {
  const { response } = credential;
  return {
    credentialId: field(credential.rawId, 'rawId'),
    clientDataJson: field(response.clientDataJSON, 'response.clientDataJSON'),
    attestationObject: field(response.attestationObject, 'response.attestationObject'),
    transports: [...(response.getTransports?.() ?? response.transports ?? [])],
  };
}

/** Maps an authentication credential to the `assertion` body field (all base64url, no padding). */
export function passkeyAssertion(credential: PasskeyAssertionCredential): PasskeyAssertion {
  const { response } = credential;
  return {
    credentialId: field(credential.rawId, 'rawId'),
    clientDataJson: field(response.clientDataJSON, 'response.clientDataJSON'),
    authenticatorData: field(response.authenticatorData, 'response.authenticatorData'),
    signature: field(response.signature, 'response.signature'),
    userHandle: response.userHandle == null ? null : field(response.userHandle, 'response.userHandle'),
  };
}

/** base64url (no padding) of bytes; a string is taken as base64 already and normalized to base64url. */
function field(value: PasskeyBytes | undefined, name: string): string {
  if (typeof value === 'string') {
    const url = value.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    if (!/^[A-Za-z0-9_-]*$/.test(url)) {
      throw new WalletCryptoError('invalid_input', `passkey ${name} is a string but not base64url`);
    }
    return url;
  }
  if (value instanceof ArrayBuffer) return bytesToBase64url(new Uint8Array(value));
  if (ArrayBuffer.isView(value)) return bytesToBase64url(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
  throw new WalletCryptoError('invalid_input', `passkey ${name} is missing (expected ArrayBuffer, Uint8Array or base64url)`);
}
