/**
 * A verified wallet session on the device: who it belongs to, when it ends, and its signer.
 * @module
 */
import { WalletCryptoError } from '../core/errors';
import type { ClientKeyPair } from './keys';
import { sessionKeySigner, type Signer } from './stamp';

/** The fields of a `/auth/credentials/{id}/verify` answer that a session needs. */
export interface VerifyAnswer {
  /** `Session:<id>`, when the service says. */
  id?: string | undefined;
  /** The wallet's internal account (`InternalAccount:<id>`), when the service says. */
  accountId?: string | undefined;
  /** ISO date-time at which the session ends (if it is missing, the service decides when the session ends). */
  expiresAt?: string | undefined;
  /**
   * The session key sealed to the `clientPublicKey` sent with the request (base58check bundle).
   * Absent when the client key pair itself is the session key (the service answers so when
   * `clientPublicKey` was sent compressed).
   */
  encryptedSessionSigningKey?: string | null | undefined;
}

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

/**
 * A wallet session whose signing key lives on this device. Pass `signer` as the `signer` option of
 * signed operations. The key never appears in `JSON.stringify` or `util.inspect`.
 */
export class WalletSession {
  /** `Session:<id>`, when the verify answer carried it. */
  readonly id: string | undefined;
  /** The credential (`AuthMethod:<id>`) that was verified. */
  readonly credentialId: string;
  /** The wallet's internal account id, when the verify answer carried it. */
  readonly accountId: string | undefined;
  /** ISO date-time at which the session ends; undefined when the verify answer had no readable one (the service decides). */
  readonly expiresAt: string | undefined;
  /** Compressed session public key, hex: the `publicKey` inside each stamp. */
  readonly publicKey: string;
  /** Signs challenges with this session's key; refuses once the session or the challenge expired. */
  readonly signer: Signer;

  private constructor(init: Pick<WalletSession, 'id' | 'credentialId' | 'accountId' | 'expiresAt' | 'publicKey'>, signer: Signer) {
    this.id = init.id;
    this.credentialId = init.credentialId;
    this.accountId = init.accountId;
    this.expiresAt = init.expiresAt;
    this.publicKey = init.publicKey;
    this.signer = async (challenge) => {
      if (this.isExpired()) {
        throw new WalletCryptoError('session_expired', `wallet session expired at ${this.expiresAt}; verify the credential again`);
      }
      return signer(challenge);
    };
  }

  /**
   * Opens the session key of a `/verify` answer with the key pair whose public key was sent as
   * `clientPublicKey`; when the answer carries no encrypted key, the key pair itself is the session
   * key. Throws {@link WalletCryptoError} if it does not open.
   */
  static async fromVerify(verifyAnswer: VerifyAnswer, keyPair: ClientKeyPair, credentialId: string): Promise<WalletSession> {
    if (typeof credentialId !== 'string' || credentialId === '') {
      throw new WalletCryptoError('invalid_input', 'credentialId must be a non-empty string');
    }
    const sealed = verifyAnswer.encryptedSessionSigningKey;
    const sessionKey = typeof sealed === 'string' && sealed !== '' ? await keyPair.decryptSessionKey(sealed) : keyPair.sessionKey();
    return new WalletSession(
      {
        id: verifyAnswer.id,
        credentialId,
        accountId: verifyAnswer.accountId,
        // An answer without a readable expiry still makes a session (open world): the service refuses it once it ends.
        expiresAt: typeof verifyAnswer.expiresAt === 'string' && !Number.isNaN(Date.parse(verifyAnswer.expiresAt)) ? verifyAnswer.expiresAt : undefined,
        publicKey: sessionKey.publicKey,
      },
      sessionKeySigner(sessionKey),
    );
  }

  /** True once `now` (ms since epoch) reaches `expiresAt`; false when the expiry is unknown. */
  isExpired(now: number = Date.now()): boolean {
    return this.expiresAt !== undefined && Date.parse(this.expiresAt) <= now;
  }

  /** Redacted form: identifiers and expiry only. */
  toJSON(): Record<string, string | undefined> {
    const { id, credentialId, accountId, expiresAt, publicKey } = this;
    return { id, credentialId, accountId, expiresAt, publicKey };
  }

  /** Redacted form for Node's `util.inspect` / `console.log`. */
  [inspectSymbol](): string {
    return `WalletSession ${JSON.stringify(this.toJSON())}`;
  }
}
