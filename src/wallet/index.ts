/**
 * `crossborder-sdk/wallet`: the device side of wallet sessions. Generates the client key pair,
 * opens `encryptedSessionSigningKey`, seals OTP codes for the secure OTP login (`createOtpLogin`),
 * and builds `Service-Wallet-Signature` stamps. Browser-safe:
 * WebCrypto only (plus @noble/curves for the one point computation WebCrypto lacks).
 *
 * ```ts
 * const keyPair = await generateClientKeyPair();
 * // send keyPair.publicKey as clientPublicKey, get the /verify answer back
 * const session = await WalletSession.fromVerify(answer, keyPair, credentialId);
 * await cb.auth.sessions.revoke(otherSessionId, { signer: session.signer });
 * ```
 * @module crossborder-sdk/wallet
 */
export { WalletCryptoError, type WalletCryptoErrorReason } from '../core/errors';
export { generateClientKeyPair, importSessionKey, SessionKey, type ClientKeyPair } from './keys';
export { stamp, sessionKeySigner, STAMP_SCHEME, type Signer } from './stamp';
export { WalletSession, type VerifyAnswer } from './session';
export {
  createOtpLogin,
  encryptOtp,
  verifyOtpTargetBundle,
  PRODUCTION_OTP_SIGNER_PUBLIC_KEY,
  LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY,
  type CreateOtpLoginParams,
  type EncryptOtpParams,
  type OtpLogin,
  type OtpTarget,
  type OtpTargetParams,
  type OtpVerifyBody,
} from './otp';
export {
  passkeyAttestation,
  passkeyAssertion,
  type PasskeyAttestation,
  type PasskeyAssertion,
  type PasskeyAttestationCredential,
  type PasskeyAssertionCredential,
  type PasskeyBytes,
} from './passkey';
