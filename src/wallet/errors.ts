import { CrossborderError } from '../core/errors';

/** Machine-readable cause of a {@link WalletCryptoError}. */
export type WalletCryptoErrorReason =
  | 'invalid_input'
  | 'decrypt_failed'
  | 'challenge_expired'
  | 'session_expired'
  | 'unsupported';

/**
 * A wallet key operation failed on the device: bad input (hex, lengths, passkey fields), a session key
 * that does not open, or a challenge / session past its `expiresAt`. Messages never carry key material.
 */
export class WalletCryptoError extends CrossborderError {
  override name = 'WalletCryptoError';
  /** Which check failed. */
  readonly reason: WalletCryptoErrorReason;
  constructor(reason: WalletCryptoErrorReason, message: string) {
    super(message);
    this.reason = reason;
  }
}
