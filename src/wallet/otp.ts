/**
 * The device side of the secure OTP login (EMAIL_OTP and SMS_OTP, production's form): check the
 * signature of the credential's `otpEncryptionTargetBundle`, HPKE-seal `{otp_code, public_key}` to
 * its target key, and keep the key pair whose public key was sealed: it signs the `/verify` 202
 * challenge (the `verificationToken`) and becomes the session key.
 *
 * The format is Turnkey's OTP encryption, checked against `@turnkey/crypto` 2.13.2
 * (`encryptOtpCodeToBundle`) in test/wallet/otp-vectors.test.ts.
 * @module
 */
import { base64urlToBytes, bytesToHex, derToP1363, fromUtf8, hexToBytes, utf8 } from './encoding';
import { WalletCryptoError } from '../core/errors';
import { hpkeSeal, uncompressed } from './hpke';
import { generateClientKeyPair, type ClientKeyPair } from './keys';
import { WalletSession, type VerifyAnswer } from './session';
import { sessionKeySigner, type Signer } from './stamp';
import type { SignatureChallenge } from '../core/errors';
import { ECDSA_P256, ECDSA_SHA256, subtle } from './webcrypto';

/**
 * The enclave key that signs production's OTP target bundles: Turnkey's production TLS-fetcher signing
 * key, the key `@turnkey/crypto`'s `encryptOtpCodeToBundle` pins by default. The default of
 * {@link encryptOtp} and {@link createOtpLogin}.
 */
export const PRODUCTION_OTP_SIGNER_PUBLIC_KEY =
  '046b4f88421f76b6ba418afc2ea1d8ced671337d7db6b80478a60d8531bf8f17fa9a512f0fef96fc0c9b4cd9dff70b34992e520ce04c79d931f6ff6296b547d201';

/**
 * The enclave key of the local sandbox (`crossborder-sdk/sandbox`). Its private half is derived from a
 * published label, so it proves nothing: pass it as `signerPublicKey` against the local sandbox only.
 */
export const LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY =
  '042c00864968e678dba0fed224ad2f5bd9801e5cf4e875b1fd33a29897421bab89614a6ef655d665393d8eda410f63780d4f68fd6463dc71f4ba79e479247a5a02';

/** What a verified `otpEncryptionTargetBundle` says. */
export interface OtpTarget {
  /** The key to seal the code to: uncompressed P-256 point, lower-case hex. */
  readonly targetPublicKey: string;
  /** The enclave key that signed it (the pinned one), lower-case hex. */
  readonly signerPublicKey: string;
  /** The bundle's `version`, when it carries one (`v1.0.0` today; not checked, as Turnkey's code does not). */
  readonly version: string | undefined;
}

/** Options of {@link verifyOtpTargetBundle}. */
export interface OtpTargetParams {
  /**
   * The enclave key the bundle must be signed by (uncompressed hex). Default
   * {@link PRODUCTION_OTP_SIGNER_PUBLIC_KEY}; the local sandbox signs with
   * {@link LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY}.
   */
  signerPublicKey?: string | undefined;
}

/** Options of {@link encryptOtp}. */
export interface EncryptOtpParams extends OtpTargetParams {
  /** The `otpEncryptionTargetBundle` of the credential's create or `/challenge` answer, as received. */
  otpEncryptionTargetBundle: string;
  /** The code the user received (the local sandbox's is `000000`). */
  otpCode: string;
  /** The key pair whose compressed public key is sealed with the code; it signs the 202 challenge. */
  keyPair: ClientKeyPair;
}

const fail = (message: string, cause?: unknown) => new WalletCryptoError('invalid_input', message, cause === undefined ? undefined : { cause });

/**
 * Checks an `otpEncryptionTargetBundle` the way Turnkey's `encryptOtpCodeToBundle` does, and returns its
 * target key. Exactly what is verified:
 * 1. the bundle is JSON with string `data`, `dataSignature` and `enclaveQuorumPublic`;
 * 2. `enclaveQuorumPublic` is the pinned `signerPublicKey` (hex, either case);
 * 3. `dataSignature` (hex of a strict-DER ECDSA signature) verifies with that key, ECDSA P-256 SHA-256,
 *    over the bytes hex-decoded from `data`;
 * 4. those bytes are UTF-8 JSON whose `targetPublic` is the hex of a P-256 point on the curve.
 *
 * Not checked (nor by Turnkey's code): `version`, other fields of `data`, any expiry. Throws
 * {@link WalletCryptoError} `invalid_input` naming the step that failed; never echoes the bundle.
 */
export async function verifyOtpTargetBundle(otpEncryptionTargetBundle: string, options: OtpTargetParams = {}): Promise<OtpTarget> {
  const pinned = options.signerPublicKey ?? PRODUCTION_OTP_SIGNER_PUBLIC_KEY;
  const pinnedBytes = hexToBytes(pinned, 'signerPublicKey');
  let signerKey: CryptoKey;
  try {
    signerKey = await subtle().importKey('raw', uncompressed(pinnedBytes, 'signerPublicKey'), ECDSA_P256, false, ['verify']);
  } catch (cause) {
    if (cause instanceof WalletCryptoError) throw cause;
    throw new WalletCryptoError('unsupported', `this runtime's WebCrypto refused the ECDSA P-256 signerPublicKey`, { cause });
  }
  if (typeof otpEncryptionTargetBundle !== 'string' || otpEncryptionTargetBundle === '') {
    throw fail('otpEncryptionTargetBundle must be the non-empty string the service answered');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(otpEncryptionTargetBundle);
  } catch (cause) {
    throw fail('otpEncryptionTargetBundle is not JSON', cause);
  }
  const { data, dataSignature, enclaveQuorumPublic, version } = (parsed ?? {}) as Record<string, unknown>;
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    typeof data !== 'string' ||
    typeof dataSignature !== 'string' ||
    typeof enclaveQuorumPublic !== 'string'
  ) {
    throw fail('otpEncryptionTargetBundle must be a JSON object with string data, dataSignature and enclaveQuorumPublic');
  }
  if (enclaveQuorumPublic.toLowerCase() !== pinned.toLowerCase()) {
    throw fail(
      `otpEncryptionTargetBundle is signed by enclave key ${short(enclaveQuorumPublic)}, not the pinned signerPublicKey ${short(pinned)}` +
        (pinned.toLowerCase() === PRODUCTION_OTP_SIGNER_PUBLIC_KEY ? ' (production); against the local sandbox pass LOCAL_SANDBOX_OTP_SIGNER_PUBLIC_KEY' : ''),
    );
  }
  const dataBytes = hexToBytes(data, 'otpEncryptionTargetBundle.data');
  const signature = derToP1363(hexToBytes(dataSignature, 'otpEncryptionTargetBundle.dataSignature'));
  if (!(await subtle().verify(ECDSA_SHA256, signerKey, signature, dataBytes))) {
    throw fail('otpEncryptionTargetBundle.dataSignature does not verify over data with the pinned enclave key');
  }
  let targetPublic: unknown;
  try {
    targetPublic = (JSON.parse(fromUtf8(dataBytes)) as Record<string, unknown> | null)?.targetPublic;
  } catch (cause) {
    throw fail('otpEncryptionTargetBundle.data is not the hex of UTF-8 JSON', cause);
  }
  if (typeof targetPublic !== 'string') throw fail('otpEncryptionTargetBundle.data has no targetPublic');
  const target = uncompressed(hexToBytes(targetPublic, 'targetPublic'), 'targetPublic');
  return {
    targetPublicKey: bytesToHex(target),
    signerPublicKey: pinned.toLowerCase(),
    version: typeof version === 'string' ? version : undefined,
  };
}

/** First and last characters of a hex key, for messages. */
function short(hex: string): string {
  return hex.length > 20 ? `${hex.slice(0, 10)}…${hex.slice(-8)}` : hex;
}

/**
 * Makes the `encryptedOtpBundle` of a secure OTP `/verify`: checks the target bundle
 * ({@link verifyOtpTargetBundle}), then HPKE-seals the UTF-8 JSON `{"otp_code","public_key"}` (the code
 * and `keyPair.publicKeyCompressed`) to its target key: base mode, DHKEM(P-256, HKDF-SHA256) /
 * HKDF-SHA256 / AES-256-GCM, info `turnkey_hpke`, AAD `enc` ‖ target key (both uncompressed).
 * @returns the JSON text `{"encappedPublic","ciphertext"}` (lower-case hex; `encappedPublic` uncompressed),
 *   as production and `@turnkey/crypto` encode it.
 */
export async function encryptOtp(options: EncryptOtpParams): Promise<string> {
  const { otpEncryptionTargetBundle, otpCode, keyPair } = options;
  if (typeof otpCode !== 'string' || otpCode === '') throw fail('otpCode must be the non-empty code the user received');
  if (typeof keyPair?.publicKeyCompressed !== 'string') throw fail('keyPair must come from generateClientKeyPair()');
  const target = await verifyOtpTargetBundle(otpEncryptionTargetBundle, options);
  const plaintext = utf8(JSON.stringify({ otp_code: otpCode, public_key: keyPair.publicKeyCompressed }));
  try {
    const { enc, ciphertext } = await hpkeSeal(hexToBytes(target.targetPublicKey, 'targetPublic'), plaintext, 'targetPublic');
    return JSON.stringify({ encappedPublic: bytesToHex(enc), ciphertext: bytesToHex(ciphertext) });
  } finally {
    plaintext.fill(0);
  }
}

/**
 * The `public_key` claim of the verification token a secure OTP `/verify` 202 asks to sign, or
 * undefined when the payload carries no such claim. `payloadToSign` is the token itself (a JWT
 * `header.claims.signature`, as the local sandbox and production send it) or JSON text with a string
 * `verificationToken`. The claims segment is base64url (padding and the `+/` alphabet tolerated, as
 * Turnkey's `verifyOtpVerificationToken` decodes it). Nothing else is read: not the signature (the
 * service checks it), not `exp` nor any other claim.
 */
function verificationTokenPublicKey(payloadToSign: unknown): unknown {
  if (typeof payloadToSign !== 'string') return undefined;
  let token: unknown = payloadToSign.trim();
  try {
    if (payloadToSign.trimStart().startsWith('{')) token = (JSON.parse(payloadToSign) as Record<string, unknown> | null)?.verificationToken;
    if (typeof token !== 'string') return undefined;
    const parts = token.trim().split('.');
    if (parts.length !== 3) return undefined;
    const segment = parts[1]!.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
    const claims: unknown = JSON.parse(fromUtf8(base64urlToBytes(segment, 'verificationToken')));
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>).public_key : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Refuses to sign a verification token that is not bound to `keyPair`: its `public_key` claim must be
 * the key pair's public key, compressed (33 bytes) or uncompressed (65 bytes) hex, either case.
 * Otherwise a relayed or tampered challenge would have the device authorize a session for another key.
 */
function assertTokenBoundTo(challenge: SignatureChallenge, keyPair: ClientKeyPair): void {
  const claim = verificationTokenPublicKey(challenge?.payloadToSign);
  if (typeof claim !== 'string' || claim === '') {
    throw fail(
      `challenge ${String(challenge?.requestId)}: payloadToSign carries no verificationToken.public_key claim ` +
        '(expected the verification token, a JWT, of a secure OTP /verify); not signed',
    );
  }
  const hex = claim.toLowerCase();
  const own = hex.length === 66 ? keyPair.publicKeyCompressed.toLowerCase() : keyPair.publicKey.toLowerCase();
  if (hex !== own) {
    throw fail(
      `challenge ${String(challenge?.requestId)}: verificationToken.public_key is ${short(claim)}, not this login's public key ` +
        `${short(keyPair.publicKeyCompressed)}; not signed (a relayed or altered challenge would open a session for another key)`,
    );
  }
}

/** The `/verify` body of a secure OTP login (for either type, one of the two bodies). */
export type OtpVerifyBody<T extends 'EMAIL_OTP' | 'SMS_OTP' = 'EMAIL_OTP' | 'SMS_OTP'> = T extends unknown ? { type: T; encryptedOtpBundle: string } : never;

/**
 * One secure OTP login on the device: the sealed code, and the key pair that signs the `/verify` 202
 * challenge and then is the session key. Single use: make a new one for every code.
 */
export interface OtpLogin {
  /** The key pair sealed with the code (its private half never leaves WebCrypto). */
  readonly keyPair: ClientKeyPair;
  /** The `encryptedOtpBundle` to send. */
  readonly encryptedOtpBundle: string;
  /** Compressed public key (hex) sealed with the code: the future session's `publicKey`. */
  readonly publicKey: string;
  /** The `/verify` body of an EMAIL_OTP credential: `{ type: 'EMAIL_OTP', encryptedOtpBundle }`. */
  body(): OtpVerifyBody<'EMAIL_OTP'>;
  /** The `/verify` body for a credential of `type`: `{ type, encryptedOtpBundle }`. */
  body<T extends 'EMAIL_OTP' | 'SMS_OTP'>(type: T): OtpVerifyBody<T>;
  /**
   * Signs the 202 challenge (the `verificationToken`) with the key pair; pass as the `signer` option of
   * `verify`, or call it on the device with the relayed challenge. Refuses ({@link WalletCryptoError}
   * `invalid_input`, naming `verificationToken.public_key`) a token whose `public_key` claim is missing
   * or is not this login's public key (compressed or uncompressed hex, either case), and a challenge past
   * its `expiresAt` (`challenge_expired`). Other claims are not checked: the service does.
   */
  readonly signer: Signer;
  /** The session of the signed `/verify` answer: the key pair is its session key. */
  session(verifyAnswer: VerifyAnswer, credentialId: string): Promise<WalletSession>;
}

/** Options of {@link createOtpLogin}. */
export interface CreateOtpLoginParams extends OtpTargetParams {
  /** The `otpEncryptionTargetBundle` of the credential's create or `/challenge` answer, as received. */
  otpEncryptionTargetBundle: string;
  /** The code the user received (the local sandbox's is `000000`). */
  otpCode: string;
  /** A key pair to use instead of a fresh one (from {@link generateClientKeyPair}). */
  keyPair?: ClientKeyPair | undefined;
}

/**
 * Starts a secure OTP login: a fresh key pair, the code sealed with its public key
 * ({@link encryptOtp}), the signer of the 202 challenge (which first checks that the verification
 * token's `public_key` claim is this key pair's) and the session it leads to.
 * @example
 * ```ts
 * const login = await createOtpLogin({ otpEncryptionTargetBundle, otpCode });
 * const answer = await cb.auth.credentials.verify(credentialId, login.body('EMAIL_OTP'), { signer: login.signer });
 * const session = await login.session(answer, credentialId);
 * ```
 */
export async function createOtpLogin(options: CreateOtpLoginParams): Promise<OtpLogin> {
  const keyPair = options.keyPair ?? (await generateClientKeyPair());
  const encryptedOtpBundle = await encryptOtp({ ...options, keyPair });
  const stampWithKey = sessionKeySigner(keyPair.sessionKey());
  const signer: Signer = async (challenge) => {
    assertTokenBoundTo(challenge, keyPair);
    return stampWithKey(challenge);
  };
  return Object.freeze({
    keyPair,
    encryptedOtpBundle,
    publicKey: keyPair.publicKeyCompressed,
    body: ((type: 'EMAIL_OTP' | 'SMS_OTP' = 'EMAIL_OTP') => ({ type, encryptedOtpBundle })) as OtpLogin['body'],
    signer,
    // The answer carries no sealed key (the key pair is the session key); one that did would be opened.
    session: (verifyAnswer: VerifyAnswer, credentialId: string) => WalletSession.fromVerify(verifyAnswer, keyPair, credentialId),
  });
}
