// @ts-nocheck
// Runs on your backend, which holds the API credentials but never the user's session key.
import { SignatureRequiredError, type CredentialCreateParams, type Crossborder } from 'crossborder-sdk';
import type { PasskeyAssertion } from 'crossborder-sdk/wallet';

/** EMAIL_OTP login: the code and the device's public key in; the sealed session out, for the device. */
export function verifyEmailCode(cb: Crossborder, credentialId: string, otp: string, clientPublicKey: string) {
  return cb.auth.credentials.verify(credentialId, { type: 'EMAIL_OTP', otp, clientPublicKey });
}

/** Relay mode, first leg: try; if the user must sign, hand the challenge to the app instead of failing. */
export async function addCredential(cb: Crossborder, params: CredentialCreateParams) {
  try {
    return { credential: await cb.auth.credentials.create(params) }; // an account's first credential
  } catch (err) {
    if (err instanceof SignatureRequiredError) return { challenge: err.challenge }; // payloadToSign, requestId, expiresAt
    throw err;
  }
}

/** Relay mode, second leg: the identical params, the device's signature, and the challenge's requestId. */
export function completeAddCredential(cb: Crossborder, params: CredentialCreateParams, signed: { signature: string; requestId: string }) {
  return cb.auth.credentials.create(params, signed);
}

/** Passkey login, first leg: the WebAuthn challenge for the device, and the requestId for the second leg. */
export async function startPasskeyLogin(cb: Crossborder, credentialId: string, clientPublicKey: string) {
  const started = await cb.auth.credentials.challenge(credentialId, { clientPublicKey });
  if (!('requestId' in started)) throw new Error(`${credentialId} is not a passkey`);
  return { challenge: started.challenge, requestId: started.requestId, passkeyId: started.credentialId };
}

/** Passkey login, second leg: the device's assertion plus the first leg's requestId. */
export function finishPasskeyLogin(cb: Crossborder, credentialId: string, assertion: PasskeyAssertion, requestId: string) {
  return cb.auth.credentials.verify(credentialId, { type: 'PASSKEY', assertion }, { requestId });
}
