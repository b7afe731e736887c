// The secure OTP login (production's form, EMAIL_OTP and SMS_OTP): the backend relays, the device
// seals the code and signs. The plaintext code never reaches your backend or the service.
import { SignatureRequiredError, type Crossborder, type SignatureChallenge } from 'crossborder-sdk';
import { createOtpLogin, type OtpLogin, type OtpVerifyBody, type VerifyAnswer } from 'crossborder-sdk/wallet';

// ---- backend ----

/** Sends a fresh code; the answer says where the device must seal it. */
export async function sendCode(cb: Crossborder, credentialId: string): Promise<string> {
  const answer = await cb.auth.credentials.challenge(credentialId);
  if (!('otpEncryptionTargetBundle' in answer) || !answer.otpEncryptionTargetBundle) {
    throw new Error('this service answered no otpEncryptionTargetBundle: use the code-and-clientPublicKey form');
  }
  return answer.otpEncryptionTargetBundle;
}

/** First leg: the sealed code in; the verification token to sign out (relay mode), for the device. */
export async function verifySealedCode(cb: Crossborder, credentialId: string, body: OtpVerifyBody) {
  try {
    return { session: await cb.auth.credentials.verify(credentialId, body) };
  } catch (err) {
    if (err instanceof SignatureRequiredError) return { challenge: err.challenge }; // payloadToSign = verificationToken
    throw err;
  }
}

/** Second leg: the identical body, the device's signature and the challenge's requestId; the session out. */
export function completeSealedCode(cb: Crossborder, credentialId: string, body: OtpVerifyBody, signed: { signature: string; requestId: string }) {
  return cb.auth.credentials.verify(credentialId, body, signed);
}

// ---- device ----

let login: OtpLogin | undefined;

/**
 * Seals the code the user typed, with a fresh key pair's public key. `signerPublicKey` is the enclave
 * key the bundle must be signed by: PRODUCTION_OTP_SIGNER_PUBLIC_KEY (the default) in production,
 * LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY against the local sandbox.
 */
export async function sealCode(otpEncryptionTargetBundle: string, otpCode: string, type: 'EMAIL_OTP' | 'SMS_OTP', signerPublicKey?: string) {
  login = await createOtpLogin({ otpEncryptionTargetBundle, otpCode, signerPublicKey });
  return login.body(type); // { type, encryptedOtpBundle }: send it to your backend
}

/** Signs the verification token with the key pair sealed with the code. */
export function signVerification(challenge: SignatureChallenge): Promise<string> {
  if (!login) throw new Error('call sealCode() first');
  return login.signer(challenge);
}

/** The session: its key is the login's key pair (the answer carries no encryptedSessionSigningKey). */
export async function finishOtpLogin(answer: VerifyAnswer, credentialId: string) {
  if (!login) throw new Error('call sealCode() first');
  const session = await login.session(answer, credentialId);
  login = undefined;
  return session;
}
