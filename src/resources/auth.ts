import type { APIPromise } from '../core/api-promise';
import type { RequestOptions, SignedRequestOptions } from '../core/options';
import { APIResource } from '../core/resource';
import { ValidationError } from '../core/errors';
import * as op from '../generated/operations';
import type {
  Credential,
  CredentialChallengeParams,
  CredentialCreateParams,
  CredentialListParams,
  CredentialVerifyParams,
  CredentialList,
  DelegatedKey,
  DelegatedKeyCreateParams,
  DelegatedKeyList,
  DelegatedKeyListParams,
  PasskeyChallenge,
  RefreshedSession,
  Session,
  SessionList,
  SessionListParams,
  SessionRefreshParams,
  WalletSessionInfo,
} from '../types';

/** Options of {@link Credentials.verify}. */
export interface VerifyOptions extends SignedRequestOptions {
  /**
   * PASSKEY: the `requestId` answered by {@link Credentials.challenge}, sent as `Request-Id`. With
   * `signature` (secure OTP login, relay mode): the `requestId` of the 202 challenge.
   */
  requestId?: string | undefined;
}

/** Wallet credentials (PASSKEY, OAUTH, EMAIL_OTP) that issue sessions. */
export class Credentials extends APIResource {
  /**
   * Registers a credential. The first credential of an account answers 201 at once; a further one
   * needs a signature from an active session of the account (the signed retry): pass `signer`, or
   * catch {@link SignatureRequiredError}, relay its challenge, and call again with `{ signature, requestId }`.
   * Registration never issues a session: {@link verify} does.
   * @example
   * ```ts
   * // An account's first credential answers at once:
   * const emailOtp = await cb.auth.credentials.create({
   *   type: 'EMAIL_OTP',
   *   accountId: walletId,
   * });
   *
   * // A further one is signed by a session of the account, on the device:
   * const oauth = await cb.auth.credentials.create(
   *   { type: 'OAUTH', accountId: walletId, oidcToken },
   *   { signer },
   * );
   * ```
   */
  create(params: CredentialCreateParams, options?: SignedRequestOptions): APIPromise<Credential> {
    return this._client.call(op.createCredential, { body: params }, options);
  }

  /**
   * Lists the credentials of an account (not paginated: resolves to `{ data }`).
   * @example
   * ```ts
   * // Not paginated: resolves to { data }.
   * const { data } = await cb.auth.credentials.list({ accountId: walletId });
   * for (const credential of data) {
   *   console.log(credential.id, credential.type, credential.nickname);
   * }
   * ```
   */
  list(params: CredentialListParams, options?: RequestOptions): APIPromise<CredentialList> {
    return this._client.call(op.listCredentials, { query: params }, options);
  }

  /**
   * Starts authentication. PASSKEY: pass `{ clientPublicKey }`; the answer carries the WebAuthn
   * `challenge` and the `requestId` for {@link verify}. EMAIL_OTP and SMS_OTP: no params (or params
   * without `clientPublicKey`); sends a fresh code (rate limited: a {@link RateLimitError} carries
   * `retryAfter`), and production's answer carries the `otpEncryptionTargetBundle` to seal it to.
   * @example
   * ```ts
   * // PASSKEY: a WebAuthn challenge for the device, and a requestId for verify().
   * const started = await cb.auth.credentials.challenge(credentialId, {
   *   clientPublicKey,
   * });
   * if ('requestId' in started) {
   *   console.log(started.challenge, started.requestId, started.expiresAt);
   * }
   *
   * // EMAIL_OTP: emails a fresh code.
   * await cb.auth.credentials.challenge(credentialId);
   * ```
   */
  challenge(credentialId: string, params?: CredentialChallengeParams, options?: SignedRequestOptions): APIPromise<Credential | PasskeyChallenge> {
    return this._client.call(op.challengeCredential, { path: { id: credentialId }, body: params }, options);
  }

  /**
   * Verifies a credential and issues a session whose `encryptedSessionSigningKey` is sealed to the
   * `clientPublicKey` (EMAIL_OTP, OAUTH) or to the key given to {@link challenge} (PASSKEY, with
   * `options.requestId`). Open it on the device with `crossborder-sdk/wallet`.
   *
   * Secure OTP login (production's form, EMAIL_OTP and SMS_OTP): send `{ type, encryptedOtpBundle }`
   * (made on the device by `createOtpLogin` of `crossborder-sdk/wallet`); the service answers 202 with
   * the verification token to sign, and the call goes through the signed retry like any signed write:
   * pass `signer` (the login's), or catch {@link SignatureRequiredError} and call again with
   * `{ signature, requestId }`. The answer is the session; the login's key pair is its session key.
   * @example
   * ```ts
   * // EMAIL_OTP (the code is always 000000 in the sandbox):
   * const session = await cb.auth.credentials.verify(credentialId, {
   *   type: 'EMAIL_OTP',
   *   otp: '000000',
   *   clientPublicKey,
   * });
   * // Sealed to clientPublicKey: hand it to the device.
   * console.log(session.expiresAt, session.encryptedSessionSigningKey);
   *
   * // Secure OTP login (production): the code sealed on the device by createOtpLogin() of
   * // crossborder-sdk/wallet, the 202 answered by that login's signer.
   * const otpSession = await cb.auth.credentials.verify(
   *   credentialId,
   *   { type: 'EMAIL_OTP', encryptedOtpBundle: '{"encappedPublic":"04…","ciphertext":"…"}' },
   *   { signer },
   * );
   * console.log(otpSession.id, otpSession.expiresAt); // no encryptedSessionSigningKey: the login's key pair is the session key
   *
   * // PASSKEY: the device's assertion, and the requestId of challenge().
   * const passkeySession = await cb.auth.credentials.verify(
   *   credentialId,
   *   { type: 'PASSKEY', assertion },
   *   { requestId },
   * );
   * ```
   */
  verify(credentialId: string, params: CredentialVerifyParams, options?: VerifyOptions | null): APIPromise<WalletSessionInfo> {
    // A signature with its requestId is the second leg of the signed retry: the core sends both.
    if (options?.signature !== undefined) return this._client.call(op.verifyCredential, { path: { id: credentialId }, body: params }, options);
    const { requestId, ...rest } = options ?? {};
    if (params?.type === 'PASSKEY' && !requestId) {
      return this._client.reject(
        new ValidationError([{ path: 'options.requestId', rule: 'required', message: 'PASSKEY verify needs the requestId answered by challenge()' }]),
      );
    }
    const header = requestId ? { 'Request-Id': requestId } : undefined;
    return this._client.call(op.verifyCredential, { path: { id: credentialId }, body: params, header }, rest);
  }

  /**
   * Revokes a credential (signed). The signing session must belong to a different credential of the
   * same account, and an account keeps at least one credential. Resolves to `undefined`.
   * @example
   * ```ts
   * // Signed with a session of another credential of the same account.
   * await cb.auth.credentials.revoke(credentialId, { signer });
   * ```
   */
  revoke(credentialId: string, options?: SignedRequestOptions): APIPromise<void> {
    return this._client.call(op.revokeCredential, { path: { id: credentialId } }, options);
  }
}

/** Wallet sessions. */
export class Sessions extends APIResource {
  /**
   * Lists the sessions of an account (not paginated: resolves to `{ data }`).
   * @example
   * ```ts
   * // Not paginated: resolves to { data }.
   * const { data } = await cb.auth.sessions.list({ accountId: walletId });
   * for (const session of data) {
   *   console.log(session.id, session.type, session.expiresAt);
   * }
   * ```
   */
  list(params: SessionListParams, options?: RequestOptions): APIPromise<SessionList> {
    return this._client.call(op.listSessions, { query: params }, options);
  }

  /**
   * Revokes a session (signed). Resolves to `undefined`.
   * @example
   * ```ts
   * await cb.auth.sessions.revoke(sessionId, { signer });
   * ```
   */
  revoke(sessionId: string, options?: SignedRequestOptions): APIPromise<void> {
    return this._client.call(op.revokeSession, { path: { id: sessionId } }, options);
  }

  /**
   * Refreshes an active session (signed): the service issues a new session of the same wallet and
   * credential. Send the public half of a fresh client key pair; the 202 challenge must be signed by
   * the session being refreshed (its `signer`), and the identical request is repeated. With a
   * compressed `clientPublicKey` the new session's key is that key pair (no key material in the
   * answer); with an uncompressed one, `encryptedSessionSigningKey` is sealed to it. The refreshed
   * session stays active until its own `expiresAt`. Resolves to the new session.
   * @example
   * ```ts
   * import { generateClientKeyPair, WalletSession } from 'crossborder-sdk/wallet';
   *
   * // On the device: a new key pair, and the current session signs the refresh.
   * const keys = await generateClientKeyPair();
   * const refreshed = await cb.auth.sessions.refresh(
   *   sessionId,
   *   { clientPublicKey: keys.publicKeyCompressed },
   *   { signer }, // the current session's signer (WalletSession.signer)
   * );
   * const next = await WalletSession.fromVerify(refreshed, keys, credentialId);
   * console.log(refreshed.id, refreshed.expiresAt);
   * ```
   */
  refresh(sessionId: string, params: SessionRefreshParams, options?: SignedRequestOptions): APIPromise<RefreshedSession> {
    return this._client.call(op.refreshAuthSession, { path: { id: sessionId }, body: params }, options);
  }
}

/**
 * Delegated signing keys (production's): a P-256 key the service generates and keeps, signing for a
 * card's Embedded Wallet funding account in place of a session. Its private key is never returned.
 */
export class DelegatedKeys extends APIResource {
  /**
   * Creates a delegated key (signed twice): the first call answers a challenge, the signed repeat a
   * second one, and the repeat signed again the key, `ACTIVE`. With `signer` (a session of the wallet)
   * the client signs both; in relay mode each signed call throws {@link SignatureRequiredError} with
   * the next challenge until the last. The body must be identical on every call. A card funding
   * source has at most one `ACTIVE` key ({@link ConflictError} otherwise).
   * @example
   * ```ts
   * // Signed twice by a session of the wallet, on the device.
   * const key = await cb.auth.delegatedKeys.create(
   *   { cardId: 'Card:019542f5-b3e7-1d02-0000-000000000031', internalAccountId: walletId, nickname: 'Card payments key' },
   *   { signer }, // the wallet session's signer (WalletSession.signer)
   * );
   * console.log(key.id, key.status, key.publicKey); // ACTIVE; the private key stays with the service
   * ```
   */
  create(params: DelegatedKeyCreateParams, options?: SignedRequestOptions): APIPromise<DelegatedKey> {
    return this._client.call(op.createDelegatedKey, { body: params }, options);
  }

  /**
   * Lists the delegated keys of a wallet (`accountId`), of a card funding source (`fundingSourceId`),
   * or both, in every status (not paginated: resolves to `{ data }`). The service needs at least one
   * of the two.
   * @example
   * ```ts
   * const { data } = await cb.auth.delegatedKeys.list({ accountId: walletId });
   * for (const key of data) console.log(key.id, key.status, key.fundingSourceId);
   * ```
   */
  list(params: DelegatedKeyListParams, options?: RequestOptions): APIPromise<DelegatedKeyList> {
    return this._client.call(op.listDelegatedKeys, { query: params }, options);
  }

  /**
   * Retrieves a delegated key by its id, whatever its status.
   * @example
   * ```ts
   * const key = await cb.auth.delegatedKeys.retrieve('DelegatedKey:019542f5-b3e7-1d02-0000-000000000021');
   * console.log(key.status); // PENDING, ACTIVE or REVOKED
   * ```
   */
  retrieve(delegatedKeyId: string, options?: RequestOptions): APIPromise<DelegatedKey> {
    return this._client.call(op.getDelegatedKeyById, { path: { id: delegatedKeyId } }, options);
  }

  /**
   * Revokes an `ACTIVE` delegated key; the service authorizes it with the key itself, so no wallet
   * signature is needed. Resolves to `undefined`; the key then reads `REVOKED`. A key not `ACTIVE` is
   * refused with {@link BadRequestError}.
   * @example
   * ```ts
   * await cb.auth.delegatedKeys.revoke('DelegatedKey:019542f5-b3e7-1d02-0000-000000000021');
   * ```
   */
  revoke(delegatedKeyId: string, options?: RequestOptions): APIPromise<void> {
    return this._client.call(op.revokeDelegatedKey, { path: { id: delegatedKeyId } }, options);
  }
}

/** Embedded-wallet authentication. */
export class Auth extends APIResource {
  readonly credentials = new Credentials(this._client);
  readonly sessions = new Sessions(this._client);
  readonly delegatedKeys = new DelegatedKeys(this._client);
}
