/**
 * Failure scenarios on demand, the way card test numbers work elsewhere.
 * @module
 */
import { formatMoney } from './currencies';
import { SandboxError } from './errors';

/** A transaction failure reason of the API. */
export type FailureReason =
  | 'LNURLP_FAILED'
  | 'PAY_REQUEST_FAILED'
  | 'PAYMENT_APPROVAL_WEBHOOK_ERROR'
  | 'PAYMENT_APPROVAL_TIMED_OUT'
  | 'OFFRAMP_FAILED'
  | 'MISSING_MANDATORY_PAYEE_DATA'
  | 'QUOTE_EXPIRED'
  | 'QUOTE_EXECUTION_FAILED';

/**
 * Magic values that make the sandbox misbehave on purpose: whole values that ordinary test data does
 * not produce by accident (in the spirit of card test numbers), never suffixes. Sequential or random
 * account numbers, addresses and UMA names settle normally.
 *
 * The "account identifier" of a payment is the external account's `accountNumber` (or, for accounts
 * without one, its `address` or `pixKey`), or the user part of a receiving UMA address
 * (`$4000000000000005@remote.example` → `4000000000000005`).
 *
 * | Value | Effect |
 * |---|---|
 * | identifier `4000000000000001` … `4000000000000008` | a payment to it (quote execution, or transfer-in from it) ends `FAILED` with, in order, `LNURLP_FAILED`, `PAY_REQUEST_FAILED`, `PAYMENT_APPROVAL_WEBHOOK_ERROR`, `PAYMENT_APPROVAL_TIMED_OUT`, `OFFRAMP_FAILED`, `MISSING_MANDATORY_PAYEE_DATA`, `QUOTE_EXPIRED`, `QUOTE_EXECUTION_FAILED`; debited funds are returned |
 * | identifier `4000000000000098` | the payment stays `PROCESSING` forever |
 * | external account number `4000000000000099` | `beneficiaryVerificationStatus: NOT_MATCHED` |
 * | external account number `4000000000000097` | `beneficiaryVerificationStatus: PARTIAL_MATCH` |
 * | external account number `4000000000000096` | the account is created `UNDER_REVIEW` instead of `ACTIVE` |
 * | sandbox UMA receive amount exactly `13131313` (131,313.13 in a two-decimal currency) | the incoming payment is held `PENDING` for approval: by the approval webhook when `webhookEndpoint` is set or a listener that answers approvals is attached (`crossborder-sdk listen`), else until `/approve` or `/reject` |
 * | quote `lockedCurrencyAmount` exactly `14141414` (141,414.14 in a two-decimal currency) | 400 `TRANSACTION_SIZE_LIMIT_EXCEEDED`: the amount is above the corridor's largest single payment |
 * | quote `lockedCurrencyAmount` exactly `15151515` (151,515.15 in a two-decimal currency) | 429 `DAILY_VOLUME_LIMIT_EXCEEDED`: the platform's daily volume is used up (the SDK does not retry it) |
 * | OTP `000000` | the only EMAIL_OTP code that verifies |
 * | code `123456` | the only code of SCA and contact verification that verifies (production's sandbox code): email and phone verification, TOTP enrollment, SMS_OTP and TOTP logins, quote authorization, beneficiary trust; any other is 400 `INVALID_INPUT` (`details.field: code`) |
 * | origin `https://sandbox.crossborder.example` with any `passkeyAssertion` object | the only passkey proof that verifies (the customer must have a passkey enrolled) |
 * | customer `region` in the European Economic Area (`FR`, `DE`, `IE`, …) | an SCA customer: created with `contactVerification` PENDING, and a quote it executes waits `PENDING_AUTHORIZATION` (domain/sca.ts) |
 * | API token id `MAGIC_UNAUTHORIZED` (any secret) | every API request is refused 401 `UNAUTHORIZED` (production's `Error401`), as a revoked or mistyped key is |
 * | API token id `MAGIC_FORBIDDEN` (any secret) | every API request is refused 403 `FORBIDDEN` (production's `Error403`: insufficient permissions) |
 * | external account `ownershipType: FIRST_PARTY` on a crypto wallet type | the account is created `PENDING_OWNERSHIP_VERIFICATION` (the sandbox plays a platform under counterparty rules, such as the EU Travel Rule) |
 * | ownership `/verify` `signature` exactly `sandbox-signed:` followed by the challenge's `messageToSign` | the only signature that verifies (the account becomes `ACTIVE`); any other, or one after `expiresAt`, answers 400 and leaves it `UNVERIFIED` |
 * | ownership challenge `method: LIVENESS` | the hosted flow passes 30 s (sandbox clock) after the challenge: the account becomes `ACTIVE` |
 * | customer `fullName` / `businessInfo.legalName` ending ` Pending` | `kycStatus: PENDING` (verification `PENDING_MANUAL_REVIEW`) |
 * | customer `fullName` / `businessInfo.legalName` ending ` Rejected` | `kycStatus: REJECTED` (verification `REJECTED`) |
 * | beneficial owner `personalInfo.lastName` ending ` Pending` / ` Rejected` | the owner's `kycStatus: PENDING` (its business held `PENDING`) / `REJECTED` (its business's verification: `APPLICANT_REJECTED`) |
 *
 * Without a magic name, a customer is `APPROVED` when its identity fields are complete (a business's
 * also its control person and beneficial owners) and `UNVERIFIED` (verification `RESOLVE_ERRORS`, one
 * error per gap) otherwise.
 */
export const MAGIC = {
  /** Account identifier → the failure reason a payment to it ends with. */
  failures: {
    '4000000000000001': 'LNURLP_FAILED',
    '4000000000000002': 'PAY_REQUEST_FAILED',
    '4000000000000003': 'PAYMENT_APPROVAL_WEBHOOK_ERROR',
    '4000000000000004': 'PAYMENT_APPROVAL_TIMED_OUT',
    '4000000000000005': 'OFFRAMP_FAILED',
    '4000000000000006': 'MISSING_MANDATORY_PAYEE_DATA',
    '4000000000000007': 'QUOTE_EXPIRED',
    '4000000000000008': 'QUOTE_EXECUTION_FAILED',
  } as const satisfies Record<string, FailureReason>,
  /** Account identifier whose payments stay `PROCESSING` forever. */
  stuckProcessing: '4000000000000098',
  /** External account number → `beneficiaryVerificationStatus: NOT_MATCHED`. */
  beneficiaryNotMatched: '4000000000000099',
  /** External account number → `beneficiaryVerificationStatus: PARTIAL_MATCH`. */
  beneficiaryPartialMatch: '4000000000000097',
  /** External account number → account status `UNDER_REVIEW`. */
  underReview: '4000000000000096',
  /**
   * The `receivingCurrencyAmount` of `cb.sandbox.receiveUmaPayment` that is held `PENDING` for approval
   * (exactly this amount, in the currency's smallest unit: 131,313.13 USD).
   */
  holdForApprovalAmount: 13_131_313,
  /**
   * The `lockedCurrencyAmount` of a quote that production's transaction size limit refuses: 400
   * `TRANSACTION_SIZE_LIMIT_EXCEEDED` (exactly this amount, in the currency's smallest unit).
   */
  transactionSizeLimitAmount: 14_141_414,
  /**
   * The `lockedCurrencyAmount` of a quote that production's daily volume limit refuses: 429
   * `DAILY_VOLUME_LIMIT_EXCEEDED`, which is no rate limit (the SDK does not retry it, even on reads).
   */
  dailyVolumeLimitAmount: 15_151_515,
  /** What the sandbox takes as a wallet's signature of a message: this prefix, then the message itself. */
  ownershipSignaturePrefix: 'sandbox-signed:',
  /** Sandbox-clock ms after which a LIVENESS ownership challenge passes. */
  livenessPassesAfterMs: 30_000,
  /** The EMAIL_OTP code. */
  otp: '000000',
  /** The one code of SCA and contact verification (production's sandbox code). */
  scaCode: '123456',
  /** The one origin a passkey assertion of the sandbox's SCA is accepted from. */
  scaPasskeyOrigin: 'https://sandbox.crossborder.example',
  /**
   * The API token id (the user half of the Basic credentials, with any secret) whose every API request is
   * refused 401 `UNAUTHORIZED`: to test what your code does when the service refuses its credentials.
   */
  unauthorizedTokenId: 'MAGIC_UNAUTHORIZED',
  /** The API token id whose every API request is refused 403 `FORBIDDEN` (insufficient permissions). */
  forbiddenTokenId: 'MAGIC_FORBIDDEN',
  /** Name suffix → `kycStatus: PENDING`. */
  kycPendingNameSuffix: ' Pending',
  /** Name suffix → `kycStatus: REJECTED`. */
  kycRejectedNameSuffix: ' Rejected',
} as const;

/** The failure reason a payment touching `identifier` must end with, if any (whole values only). */
export function failureFor(identifier: string | undefined): FailureReason | undefined {
  if (!identifier || !Object.prototype.hasOwnProperty.call(MAGIC.failures, identifier)) return undefined;
  return MAGIC.failures[identifier as keyof typeof MAGIC.failures];
}

/** True when a payment touching `identifier` never settles. */
export function staysProcessing(identifier: string | undefined): boolean {
  return identifier === MAGIC.stuckProcessing;
}

/** True when a sandbox incoming payment of `amount` is held for approval (that one whole amount only). */
export function holdsForApproval(amount: number): boolean {
  return amount === MAGIC.holdForApprovalAmount;
}

/**
 * Production's limit refusal for a quote of `amount` `currency`, if the amount is one of the magic
 * whole values: 400 TRANSACTION_SIZE_LIMIT_EXCEEDED or 429 DAILY_VOLUME_LIMIT_EXCEEDED.
 */
export function limitRefusal(amount: number, currency: string): SandboxError | undefined {
  const details = { field: 'lockedCurrencyAmount', amount, currency };
  if (amount === MAGIC.transactionSizeLimitAmount) {
    return new SandboxError(
      400,
      'TRANSACTION_SIZE_LIMIT_EXCEEDED',
      `${formatMoney(amount, currency)} is above the largest single payment allowed for this corridor.`,
      details,
    );
  }
  if (amount === MAGIC.dailyVolumeLimitAmount) {
    return new SandboxError(429, 'DAILY_VOLUME_LIMIT_EXCEEDED', `${formatMoney(amount, currency)} would pass the platform's daily volume limit.`, details);
  }
  return undefined;
}

/**
 * Production's refusal of the API credentials whose token id is `tokenId`, if it is one of the magic
 * whole values: 401 UNAUTHORIZED or 403 FORBIDDEN, in the service's error body. Neither names the secret.
 */
export function credentialRefusal(tokenId: string): SandboxError | undefined {
  if (tokenId === MAGIC.unauthorizedTokenId) {
    return new SandboxError(
      401,
      'UNAUTHORIZED',
      `The API credentials were refused (the sandbox refuses the token id ${MAGIC.unauthorizedTokenId} on purpose, as the service refuses a revoked or mistyped key).`,
      undefined,
      { 'WWW-Authenticate': 'Basic realm="crossborder-sandbox"' },
    );
  }
  if (tokenId === MAGIC.forbiddenTokenId) {
    return new SandboxError(
      403,
      'FORBIDDEN',
      `Insufficient permissions: these API credentials may not do this (the sandbox refuses the token id ${MAGIC.forbiddenTokenId} on purpose).`,
    );
  }
  return undefined;
}

/** The one signature of `messageToSign` the sandbox accepts as the wallet's (`sandbox-signed:<message>`). */
export function sandboxWalletSignature(messageToSign: string): string {
  return `${MAGIC.ownershipSignaturePrefix}${messageToSign}`;
}
